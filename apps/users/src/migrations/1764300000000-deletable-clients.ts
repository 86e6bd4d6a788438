import { MigrationInterface, QueryRunner } from 'typeorm';

/** A client can be deleted: the row stays (its bookings and ledger refer to it), every credential of it stops working. */
export class DeletableClients1764300000000 implements MigrationInterface {
  name = 'DeletableClients1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.clients ADD COLUMN deleted_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.clients DROP COLUMN deleted_at`);
  }
}
