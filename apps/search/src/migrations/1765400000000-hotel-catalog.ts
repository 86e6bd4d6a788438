import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalog the vendors' content adds to the platform's own (the generated hotels):
 * - catalog_hotels: hotels only a vendor's content told of, with ids from 2,000,000,000
 *   (above every generated id), their content as the catalog holds it, and the GeoNames
 *   city nearest them (a place search finds them there);
 * - vendor_hotel_codes: each vendor's code of each platform hotel, and how it was matched;
 * - content_imports: every import run, its counts and how it ended;
 * - job_leases: which replica runs a timed job (the import) now.
 */
export class HotelCatalog1765400000000 implements MigrationInterface {
  name = 'HotelCatalog1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE search.imported_hotel_ids AS integer START WITH 2000000000 MINVALUE 2000000000 MAXVALUE 2147483647`);
    await queryRunner.query(`
      CREATE TABLE search.catalog_hotels (
        id               integer PRIMARY KEY CHECK (id >= 2000000000),
        city_id          integer NOT NULL,
        country_code     text NOT NULL,
        lat              double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
        long             double precision NOT NULL CHECK (long BETWEEN -180 AND 180),
        name             text NOT NULL,
        comparable_name  text NOT NULL,
        hotel            jsonb NOT NULL,
        content_vendor   text NOT NULL,
        updated_at       timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX catalog_hotels_by_city ON search.catalog_hotels (city_id)`);
    await queryRunner.query(`CREATE INDEX catalog_hotels_by_country ON search.catalog_hotels (country_code)`);
    await queryRunner.query(`CREATE INDEX catalog_hotels_by_lat ON search.catalog_hotels (lat, long)`);
    await queryRunner.query(`
      CREATE TABLE search.vendor_hotel_codes (
        vendor           text NOT NULL,
        code             bigint NOT NULL CHECK (code > 0),
        hotel_id         integer NOT NULL,
        giata_code       bigint,
        matched_by       text NOT NULL CHECK (matched_by IN ('giata_code', 'name_and_distance', 'new')),
        name             text NOT NULL,
        lat              double precision NOT NULL,
        long             double precision NOT NULL,
        content_updated  text,
        first_seen_at    timestamptz NOT NULL DEFAULT now(),
        last_seen_at     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (vendor, code),
        UNIQUE (vendor, hotel_id)
      )`);
    await queryRunner.query(`CREATE INDEX vendor_hotel_codes_by_giata ON search.vendor_hotel_codes (giata_code) WHERE giata_code IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE search.content_imports (
        id                 serial PRIMARY KEY,
        vendor             text NOT NULL,
        trigger            text NOT NULL CHECK (trigger IN ('start', 'schedule', 'command')),
        updated_since      text,
        status             text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
        started_at         timestamptz NOT NULL DEFAULT now(),
        finished_at        timestamptz,
        pages              integer NOT NULL DEFAULT 0,
        hotels             integer NOT NULL DEFAULT 0,
        known              integer NOT NULL DEFAULT 0,
        matched_by_giata   integer NOT NULL DEFAULT 0,
        matched_by_name    integer NOT NULL DEFAULT 0,
        created            integer NOT NULL DEFAULT 0,
        skipped            integer NOT NULL DEFAULT 0,
        error              text
      )`);
    await queryRunner.query(`
      CREATE TABLE search.job_leases (
        job          text PRIMARY KEY,
        taken_until  timestamptz NOT NULL,
        holder       text NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE search.job_leases`);
    await queryRunner.query(`DROP TABLE search.content_imports`);
    await queryRunner.query(`DROP TABLE search.vendor_hotel_codes`);
    await queryRunner.query(`DROP TABLE search.catalog_hotels`);
    await queryRunner.query(`DROP SEQUENCE search.imported_hotel_ids`);
  }
}
