import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A code's uses per world: sandbox redemptions used to count against a live code's
 * max_uses, so sandbox traffic could use up a live campaign. `uses` stays the live
 * count (existing uses were mostly live and stay there); `sandbox_uses` counts the
 * sandbox ones, against the same max_uses, under the same kind of check constraint.
 * A redemption records its world.
 */
export class UsesPerWorld1764800000000 implements MigrationInterface {
  name = 'UsesPerWorld1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE promo.codes ADD COLUMN sandbox_uses integer NOT NULL DEFAULT 0 CHECK (sandbox_uses >= 0 AND (max_uses IS NULL OR sandbox_uses <= max_uses))`,
    );
    await queryRunner.query(`ALTER TABLE promo.redemptions ADD COLUMN sandbox boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE promo.redemptions DROP COLUMN sandbox`);
    await queryRunner.query(`ALTER TABLE promo.codes DROP COLUMN sandbox_uses`);
  }
}
