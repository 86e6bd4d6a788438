import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rowsOf } from '@hotel/platform';

/** The leases of the rates service's timed jobs (`rates.job_leases`, one row per job). */
@Injectable()
export class JobLeasesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes a job's lease for `seconds` when nobody holds it (by the database's clock): true
   * for the one replica that took it, however many ask at once.
   */
  async take(job: string, holder: string, seconds: number): Promise<boolean> {
    // Raw: the first taking inserts the row, and TypeORM's orUpdate cannot put a WHERE on the update of an existing one.
    const rows = rowsOf(
      await this.dataSource.query(
        `INSERT INTO rates.job_leases (job, taken_until, holder) VALUES ($1, now() + make_interval(secs => $3), $2)
         ON CONFLICT (job) DO UPDATE SET taken_until = EXCLUDED.taken_until, holder = EXCLUDED.holder
          WHERE rates.job_leases.taken_until <= now()
         RETURNING job`,
        [job, holder, seconds],
      ),
    );
    return rows.length === 1;
  }
}
