import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sandbox and live are separate worlds, and a user's requests are that user's:
 * an idempotency key belongs to (client, sandbox or live, user), a
 * client_reference to (client, sandbox or live). A sandbox request can then
 * neither replay nor collide with a live one, nor one user's with another's.
 */
export class ScopedIdempotencyKeys1764200000000 implements MigrationInterface {
  name = 'ScopedIdempotencyKeys1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX booking.bookings_idempotency_key`);
    await queryRunner.query(`DROP INDEX booking.bookings_client_reference`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX bookings_idempotency_key ON booking.bookings (client_id, sandbox, coalesce(user_id, 0), idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX bookings_client_reference ON booking.bookings (client_id, sandbox, client_reference) WHERE client_reference IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX booking.bookings_idempotency_key`);
    await queryRunner.query(`DROP INDEX booking.bookings_client_reference`);
    await queryRunner.query(`CREATE UNIQUE INDEX bookings_client_reference ON booking.bookings (client_id, client_reference) WHERE client_reference IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX bookings_idempotency_key ON booking.bookings (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
  }
}
