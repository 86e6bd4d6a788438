import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSearchSessions1763920000000 implements MigrationInterface {
  name = 'CreateSearchSessions1763920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A V1 search: what was asked and when. Results are derived from it on every
    // poll (vendors answer by elapsed time), so any replica can serve any poll.
    await queryRunner.query(`
      CREATE TABLE search.sessions (
        id            uuid PRIMARY KEY,
        client_id     integer NOT NULL,
        user_id       integer,
        place_id      text NOT NULL,
        check_in      date NOT NULL,
        check_out     date NOT NULL,
        rooms         jsonb NOT NULL,
        price_epoch   bigint NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_used_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX sessions_last_used ON search.sessions (last_used_at)`);
    // When a session first asked for one hotel's rates: that hotel's vendors answer from then on.
    await queryRunner.query(`
      CREATE TABLE search.hotel_views (
        session_id          uuid NOT NULL REFERENCES search.sessions(id) ON DELETE CASCADE,
        hotel_id            integer NOT NULL,
        first_requested_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, hotel_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE search.hotel_views`);
    await queryRunner.query(`DROP TABLE search.sessions`);
  }
}
