import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateClientsAndUsers1763900000000 implements MigrationInterface {
  name = 'CreateClientsAndUsers1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users.clients (
        id            serial PRIMARY KEY,
        name          text NOT NULL CHECK (length(btrim(name)) > 0),
        credit_limit  numeric(14,2) NOT NULL DEFAULT 0 CHECK (credit_limit >= 0),
        currency      char(3) NOT NULL DEFAULT 'USD',
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      )`);
    // Secrets are never stored, only their SHA-256; they are random 256-bit strings,
    // so a fast hash is enough and keeps every authenticated request cheap.
    await queryRunner.query(`
      CREATE TABLE users.credentials (
        id           serial PRIMARY KEY,
        client_id    integer NOT NULL REFERENCES users.clients(id),
        kind         text NOT NULL CHECK (kind IN ('live', 'sandbox', 'backend')),
        secret_hash  char(64) NOT NULL UNIQUE,
        created_at   timestamptz NOT NULL DEFAULT now(),
        revoked_at   timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX credentials_active_by_client ON users.credentials (client_id, kind) WHERE revoked_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE users.users (
        id                    serial PRIMARY KEY,
        client_id             integer NOT NULL REFERENCES users.clients(id),
        first_name            text NOT NULL,
        last_name             text NOT NULL,
        email                 text NOT NULL,
        phone                 text NOT NULL,
        client_account_limit  numeric(14,2) NOT NULL CHECK (client_account_limit >= 0),
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now(),
        deleted_at            timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX users_by_client ON users.users (client_id, id)`);
    await queryRunner.query(`
      CREATE TABLE users.user_tokens (
        id          serial PRIMARY KEY,
        user_id     integer NOT NULL REFERENCES users.users(id),
        token_hash  char(64) NOT NULL UNIQUE,
        expires_at  timestamptz NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE users.user_tokens`);
    await queryRunner.query(`DROP TABLE users.users`);
    await queryRunner.query(`DROP TABLE users.credentials`);
    await queryRunner.query(`DROP TABLE users.clients`);
  }
}
