import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Placing and capturing a hold as one call each. Both lock the client's account
 * row, which serializes every money movement of that client; done from the service
 * the lock was held across five round trips to Node per call, and under load the
 * lock wait, not the work, set a client's booking rate. Inside one function the row
 * is locked only while PostgreSQL itself works and commits. The rules are the same:
 * available funds = credit limit + credits − debits − active holds, never below
 * zero; a user's outstanding (debits − refunds + active holds) within their limit;
 * one hold and one debit per booking.
 */
export class HoldFunctions1764000000000 implements MigrationInterface {
  name = 'HoldFunctions1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // What a user owes on account bookings: captured debits less refunds, plus active holds.
    await queryRunner.query(`
      CREATE FUNCTION accounting.user_outstanding(p_client integer, p_user integer) RETURNS numeric
      LANGUAGE sql STABLE AS $$
        SELECT coalesce((SELECT sum(debit - credit) FROM accounting.entries
                          WHERE client_id = p_client AND user_id = p_user AND kind IN ('booking_debit', 'booking_refund')), 0)
             + coalesce((SELECT sum(amount) FROM accounting.holds WHERE client_id = p_client AND user_id = p_user AND status = 'active'), 0)
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION accounting.place_hold(p_client integer, p_booking integer, p_user integer, p_amount numeric, p_user_limit numeric)
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
        IF account.credit_limit + account.total_credit - account.total_debit - account.total_held < p_amount THEN
          RETURN QUERY SELECT 'insufficient', NULL::integer, NULL::integer, NULL::numeric, NULL::text, NULL::integer;
          RETURN;
        END IF;
        IF p_user IS NOT NULL AND p_user_limit IS NOT NULL THEN
          IF accounting.user_outstanding(p_client, p_user) + p_amount > p_user_limit THEN
            RETURN QUERY SELECT 'insufficient', NULL::integer, NULL::integer, NULL::numeric, NULL::text, NULL::integer;
            RETURN;
          END IF;
        END IF;
        INSERT INTO accounting.holds (client_id, booking_id, user_id, amount, status)
        VALUES (p_client, p_booking, p_user, p_amount, 'active') RETURNING * INTO held;
        UPDATE accounting.accounts SET total_held = total_held + p_amount, updated_at = now() WHERE client_id = p_client;
        RETURN QUERY SELECT 'placed', held.booking_id, held.user_id, held.amount, held.status, held.entry_id;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION accounting.capture_hold(p_client integer, p_booking integer, p_name text)
      RETURNS TABLE (outcome text, booking_id integer, user_id integer, amount numeric, status text, entry_id integer)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        held accounting.holds;
        debit_id integer;
      BEGIN
        -- The account row first, as every money movement does: one lock order, no deadlocks.
        PERFORM 1 FROM accounting.accounts WHERE client_id = p_client FOR UPDATE;
        SELECT * INTO held FROM accounting.holds WHERE client_id = p_client AND booking_id = p_booking FOR UPDATE;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'not_found', NULL::integer, NULL::integer, NULL::numeric, NULL::text, NULL::integer;
          RETURN;
        END IF;
        IF held.status <> 'active' THEN
          RETURN QUERY SELECT 'existing', held.booking_id, held.user_id, held.amount, held.status, held.entry_id;
          RETURN;
        END IF;
        INSERT INTO accounting.entries (client_id, kind, debit, credit, name, booking_id, user_id)
        VALUES (p_client, 'booking_debit', held.amount, 0, p_name, p_booking, held.user_id)
        ON CONFLICT (client_id, booking_id, kind) WHERE kind <> 'manual' DO NOTHING
        RETURNING id INTO debit_id;
        IF debit_id IS NULL THEN
          SELECT id INTO debit_id FROM accounting.entries WHERE client_id = p_client AND booking_id = p_booking AND kind = 'booking_debit';
          UPDATE accounting.accounts SET total_held = total_held - held.amount, updated_at = now() WHERE client_id = p_client;
        ELSE
          UPDATE accounting.accounts
             SET total_debit = total_debit + held.amount, total_held = total_held - held.amount, entry_count = entry_count + 1, updated_at = now()
           WHERE client_id = p_client;
        END IF;
        UPDATE accounting.holds SET status = 'captured', entry_id = debit_id, updated_at = now()
         WHERE client_id = p_client AND booking_id = p_booking
        RETURNING * INTO held;
        RETURN QUERY SELECT 'captured', held.booking_id, held.user_id, held.amount, held.status, held.entry_id;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION accounting.capture_hold(integer, integer, text)`);
    await queryRunner.query(`DROP FUNCTION accounting.place_hold(integer, integer, integer, numeric, numeric)`);
    await queryRunner.query(`DROP FUNCTION accounting.user_outstanding(integer, integer)`);
  }
}
