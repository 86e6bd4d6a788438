import { DataSource } from 'typeorm';
import { rowsOf } from './service-data-source';

/**
 * The leases of a service's timed jobs: a table `<schema>.job_leases (job text primary key,
 * taken_until timestamptz, holder text)`, one row per job. Replicas take a job's row in
 * turn, so one of them runs it.
 */
export class JobLeases {
  private readonly table: string;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
  ) {
    if (!/^[a-z_]+$/.test(schema)) throw new Error(`not a schema name: ${schema}`);
    this.table = `${schema}.job_leases`;
  }

  /**
   * Takes a job's lease for `seconds` when nobody holds it (by the database's clock): true
   * for the one replica that took it, however many ask at once.
   */
  async take(job: string, holder: string, seconds: number): Promise<boolean> {
    // Raw: the first taking inserts the row, and TypeORM's orUpdate cannot put a WHERE on the update of an existing one.
    const rows = rowsOf(
      await this.dataSource.query(
        `INSERT INTO ${this.table} (job, taken_until, holder) VALUES ($1, now() + make_interval(secs => $3), $2)
         ON CONFLICT (job) DO UPDATE SET taken_until = EXCLUDED.taken_until, holder = EXCLUDED.holder
          WHERE ${this.table}.taken_until <= now()
         RETURNING job`,
        [job, holder, seconds],
      ),
    );
    return rows.length === 1;
  }

  /** Gives a lease back before its time (the job ended), so the next look need not wait it out. */
  async release(job: string, holder: string): Promise<void> {
    await this.dataSource.query(`UPDATE ${this.table} SET taken_until = now() WHERE job = $1 AND holder = $2`, [job, holder]);
  }
}
