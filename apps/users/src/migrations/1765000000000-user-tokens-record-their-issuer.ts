import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user token records the backend token that issued it (`minted_by`), so rotating or
 * revoking a backend token can revoke the user tokens it issued. Tokens issued before
 * this column have none: a backend token's rotation revokes them too, since any backend
 * token of the client may have issued them.
 */
export class UserTokensRecordTheirIssuer1765000000000 implements MigrationInterface {
  name = 'UserTokensRecordTheirIssuer1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.user_tokens ADD COLUMN minted_by integer REFERENCES users.credentials (id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.user_tokens DROP COLUMN minted_by`);
  }
}
