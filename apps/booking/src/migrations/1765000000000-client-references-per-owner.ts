import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A client_reference belongs to its owner, as an idempotency key does: the client's
 * keys (user 0 here) or one user, in one world. A user token's DUPLICATE_CLIENT_REFERENCE
 * then concerns that user's own bookings only: a reference another user of the client
 * took is no duplicate, so it reveals nothing about that user's bookings.
 * The reference comes before the owner so that a lookup by reference (GET /book with a
 * key, which sees every owner's) still reads one short range of the index.
 */
export class ClientReferencesPerOwner1765000000000 implements MigrationInterface {
  name = 'ClientReferencesPerOwner1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNIQUE INDEX bookings_client_reference_per_owner ON booking.bookings (client_id, sandbox, client_reference, coalesce(user_id, 0)) WHERE client_reference IS NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX booking.bookings_client_reference`);
    // The repository maps a violation of this name to DUPLICATE_CLIENT_REFERENCE.
    await queryRunner.query(`ALTER INDEX booking.bookings_client_reference_per_owner RENAME TO bookings_client_reference`);
  }

  /** Fails if two owners of one client now share a reference in one world: the older index cannot hold them. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE UNIQUE INDEX bookings_client_reference_per_client ON booking.bookings (client_id, sandbox, client_reference) WHERE client_reference IS NOT NULL`);
    await queryRunner.query(`DROP INDEX booking.bookings_client_reference`);
    await queryRunner.query(`ALTER INDEX booking.bookings_client_reference_per_client RENAME TO bookings_client_reference`);
  }
}
