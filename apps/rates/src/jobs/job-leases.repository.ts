import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobLeases } from '@hotel/platform';

/** The leases of the rates service's timed jobs (`rates.job_leases`, one row per job). */
@Injectable()
export class JobLeasesRepository extends JobLeases {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, 'rates');
  }
}
