import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The available-funds rule in one place. accounting.available_funds(account) is
 * credit limit + credits − debits − active holds; accounting.funds_cover(...)
 * adds a user's own limit. The binding hold (place_hold), prebook's advisory check
 * and the balance all call them; nothing else computes funds.
 */
export class OneFundsRule1764100000000 implements MigrationInterface {
  name = 'OneFundsRule1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION accounting.available_funds(account accounting.accounts) RETURNS numeric
      LANGUAGE sql IMMUTABLE AS $$
        SELECT account.credit_limit + account.total_credit - account.total_debit - account.total_held
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION accounting.funds_cover(account accounting.accounts, p_user integer, p_amount numeric, p_user_limit numeric) RETURNS boolean
      LANGUAGE sql STABLE AS $$
        SELECT accounting.available_funds(account) >= p_amount
           AND (p_user IS NULL OR p_user_limit IS NULL
                OR accounting.user_outstanding(account.client_id, p_user) + p_amount <= p_user_limit)
      $$`);
    await queryRunner.query(placeHold(`NOT accounting.funds_cover(account, p_user, p_amount, p_user_limit)`));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      placeHold(`account.credit_limit + account.total_credit - account.total_debit - account.total_held < p_amount
          OR (p_user IS NOT NULL AND p_user_limit IS NOT NULL AND accounting.user_outstanding(p_client, p_user) + p_amount > p_user_limit)`),
    );
    await queryRunner.query(`DROP FUNCTION accounting.funds_cover(accounting.accounts, integer, numeric, numeric)`);
    await queryRunner.query(`DROP FUNCTION accounting.available_funds(accounting.accounts)`);
  }
}

/** accounting.place_hold with the given refusal condition (the rest as in HoldFunctions). */
function placeHold(refuse: string): string {
  return `
    CREATE OR REPLACE FUNCTION accounting.place_hold(p_client integer, p_booking integer, p_user integer, p_amount numeric, p_user_limit numeric)
    RETURNS TABLE (outcome text, booking_id integer, user_id integer, amount numeric, status text, entry_id integer)
    LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      account accounting.accounts;
      held accounting.holds;
    BEGIN
      SELECT * INTO account FROM accounting.accounts WHERE client_id = p_client FOR UPDATE;
      IF NOT FOUND THEN
        RETURN QUERY SELECT 'no_account', NULL::integer, NULL::integer, NULL::numeric, NULL::text, NULL::integer;
        RETURN;
      END IF;
      SELECT * INTO held FROM accounting.holds WHERE client_id = p_client AND booking_id = p_booking;
      IF FOUND THEN
        RETURN QUERY SELECT 'existing', held.booking_id, held.user_id, held.amount, held.status, held.entry_id;
        RETURN;
      END IF;
      IF ${refuse} THEN
        RETURN QUERY SELECT 'insufficient', NULL::integer, NULL::integer, NULL::numeric, NULL::text, NULL::integer;
        RETURN;
      END IF;
      INSERT INTO accounting.holds (client_id, booking_id, user_id, amount, status)
      VALUES (p_client, p_booking, p_user, p_amount, 'active') RETURNING * INTO held;
      UPDATE accounting.accounts SET total_held = total_held + p_amount, updated_at = now() WHERE client_id = p_client;
      RETURN QUERY SELECT 'placed', held.booking_id, held.user_id, held.amount, held.status, held.entry_id;
    END $$`;
}
