// @ts-check
// What must hold once the platform is quiet again after a fault. Each SQL check is
// a named query that returns the rows that break its rule (none when all is well),
// so a violation prints what is wrong. The API checks compare what the platform
// answered (HTTP statuses, booking and cancellation answers, balances) with the
// database. Column names: apps/*/src/migrations/*.ts.
const fs = require('node:fs');
const path = require('node:path');
const { request } = require('../lib/https');
const { BUSINESS_FAILURES, CONTACT } = require('./load');

const FINAL = `('done', 'failed', 'cancelled')`;

/** @typedef {import('pg').Client} Sql */
/** @typedef {import('./platform').ChaosClient} ChaosClient */
/** @typedef {import('./load').HttpRecord} HttpRecord */
/**
 * A rule found broken, with the rows that break it.
 * @typedef {{ name: string, rule: string, rows: unknown[] }} Violation
 */
/**
 * A named query of the rows that break its rule; skipped while a table or column it `requires` is missing.
 * @typedef {{ name: string, rule: string, sql: string, requires?: string[] }} SqlCheck
 */
/**
 * A booking whose saga has not ended.
 * @typedef {{ id: number, client_id: number, status: string, step: string, payment_method: string, promo_code: string | null, lease_until: Date | null, updated_at: Date, created_at: Date }} SagaRow
 */
/**
 * What waitForSagas saw: when every saga had ended (null: not in time), and the bookings still under way at the bound.
 * @typedef {{ endedAt: number | null, pendingAtBound: SagaRow[] | null }} Waited
 */

/**
 * The decimals of every currency (ISO 4217, from the built contracts) as a SQL table
 * `decimals(currency, places)`, so the checks can say "in its currency's minor unit".
 * Read when a check's SQL is (a getter): the module loads before `npm run chaos` has built.
 */
function currencyDecimalsSql() {
  /** @type {typeof import('../../libs/contracts/src/common/currencies')} */
  const { ISO_4217_DECIMALS } = require(path.join(__dirname, '../../dist/libs/contracts/src/common/currencies.js'));
  const rows = Object.entries(ISO_4217_DECIMALS).map(([currency, places]) => `('${currency}', ${places})`);
  return `decimals(currency, places) AS (VALUES ${rows.join(', ')})`;
}

/**
 * Per client: the sum of `amount` over the account bookings (not sandbox) that match `bookings` = `ledger` over its entries.
 * @param {string} name
 * @param {string} rule
 * @param {{ amount: string, bookings: string, ledger: string }} sql the SQL expressions
 * @returns {SqlCheck}
 */
function perClient(name, rule, { amount, bookings, ledger }) {
  return {
    name,
    rule,
    sql: `WITH expected AS (SELECT client_id, sum(${amount}) AS amount FROM booking.bookings
                           WHERE ${bookings} AND payment_method = 'account' AND NOT sandbox GROUP BY client_id),
               ledger AS (SELECT client_id, ${ledger} AS amount FROM accounting.entries GROUP BY client_id)
          SELECT coalesce(e.client_id, l.client_id) AS client_id, coalesce(e.amount, 0) AS from_bookings, coalesce(l.amount, 0) AS in_ledger
            FROM expected e FULL JOIN ledger l ON l.client_id = e.client_id
           WHERE coalesce(e.amount, 0) <> coalesce(l.amount, 0)`,
  };
}

/** @type {SqlCheck[]} */
const SQL_CHECKS = [
  {
    name: 'bookings_in_account_currency',
    rule: "every booking is priced in its client's account currency",
    sql: `SELECT b.id, b.client_id, b.price_currency, a.currency AS account_currency
            FROM booking.bookings b JOIN accounting.accounts a ON a.client_id = b.client_id
           WHERE b.price_currency <> a.currency ORDER BY b.id`,
  },
  {
    name: 'amounts_in_minor_unit',
    rule: "every price, discount, penalty, ledger entry and hold has no more decimals than its currency's minor unit (JPY none, KWD three)",
    get sql() {
      return `WITH ${currencyDecimalsSql()},
               amounts AS (
            SELECT 'booking ' || b.id AS what, b.price_currency AS currency, v.amount
              FROM booking.bookings b CROSS JOIN LATERAL (VALUES (b.price_chargeable), (b.promo_discount), (b.cancellation_penalty)) v(amount)
            UNION ALL
            SELECT 'entry ' || e.id, a.currency, v.amount
              FROM accounting.entries e JOIN accounting.accounts a USING (client_id) CROSS JOIN LATERAL (VALUES (e.debit), (e.credit)) v(amount)
            UNION ALL
            SELECT 'hold of booking ' || h.booking_id, a.currency, h.amount FROM accounting.holds h JOIN accounting.accounts a USING (client_id))
          SELECT what, currency, amount FROM amounts JOIN decimals USING (currency)
           WHERE amount IS NOT NULL AND amount <> round(amount, places) ORDER BY what`;
    },
  },
  {
    name: 'booking_price_is_the_converted_vendor_price',
    rule: "each booking's price before its promo discount = its vendor price × its recorded exchange rate, rounded to its currency's minor unit",
    requires: ['booking.bookings.fx_rate'],
    get sql() {
      return `WITH ${currencyDecimalsSql()}
          SELECT b.id, b.price_currency, b.price_chargeable, b.promo_discount, b.vendor_currency, b.vendor_price, b.fx_rate, b.fx_rate_date
            FROM booking.bookings b JOIN decimals d ON d.currency = b.price_currency
           WHERE b.price_chargeable + b.promo_discount <> round(b.vendor_price * b.fx_rate, d.places)
              OR (b.vendor_currency = b.price_currency) <> (b.fx_rate_date IS NULL)
           ORDER BY b.id`;
    },
  },
  {
    name: 'booking_status_matches_step',
    rule: 'a booking whose saga ended has the status of that end: done/confirmed, failed/failed, cancelled/cancelled',
    sql: `SELECT id, client_id, status, step, payment_method FROM booking.bookings
           WHERE step IN ${FINAL} AND (status, step) NOT IN (('confirmed', 'done'), ('failed', 'failed'), ('cancelled', 'cancelled'))
           ORDER BY id`,
  },
  perClient('booking_debits_per_client', 'per client, booking_debit entries = price_chargeable of confirmed and cancelled account bookings (not sandbox)', {
    amount: 'price_chargeable',
    bookings: "status IN ('confirmed', 'cancelled')",
    ledger: "sum(debit) FILTER (WHERE kind = 'booking_debit')",
  }),
  perClient('booking_refunds_per_client', 'per client, booking_refund entries = price_chargeable − cancellation_penalty of cancelled account bookings (not sandbox)', {
    amount: 'price_chargeable - coalesce(cancellation_penalty, 0)',
    bookings: "status = 'cancelled'",
    ledger: "sum(credit) FILTER (WHERE kind = 'booking_refund')",
  }),
  {
    name: 'booking_debit_entries',
    rule: 'each confirmed or cancelled account booking with a price has one booking_debit of its price; no other booking is debited',
    sql: `SELECT coalesce(b.id, l.booking_id) AS booking_id, coalesce(b.client_id, l.client_id) AS client_id, b.status, b.price_chargeable, l.debits, l.entries
            FROM (SELECT * FROM booking.bookings WHERE payment_method = 'account' AND NOT sandbox) b
            FULL JOIN (SELECT client_id, booking_id, sum(debit) AS debits, count(*) AS entries FROM accounting.entries
                        WHERE kind = 'booking_debit' GROUP BY client_id, booking_id) l ON l.booking_id = b.id AND l.client_id = b.client_id
           WHERE CASE WHEN b.status IN ('confirmed', 'cancelled') AND b.price_chargeable > 0
                      THEN l.debits IS DISTINCT FROM b.price_chargeable OR l.entries <> 1
                      ELSE coalesce(l.debits, 0) <> 0 END
           ORDER BY 1`,
  },
  {
    name: 'booking_refund_entries',
    rule: 'each cancelled account booking has one booking_refund of price − penalty (when positive); no other booking is credited',
    sql: `SELECT coalesce(b.id, l.booking_id) AS booking_id, coalesce(b.client_id, l.client_id) AS client_id, b.status, b.price_chargeable,
                 b.cancellation_penalty, l.credits, l.entries
            FROM (SELECT * FROM booking.bookings WHERE payment_method = 'account' AND NOT sandbox) b
            FULL JOIN (SELECT client_id, booking_id, sum(credit) AS credits, count(*) AS entries FROM accounting.entries
                        WHERE kind = 'booking_refund' GROUP BY client_id, booking_id) l ON l.booking_id = b.id AND l.client_id = b.client_id
           WHERE CASE WHEN b.status = 'cancelled' AND b.price_chargeable - coalesce(b.cancellation_penalty, 0) > 0
                      THEN l.credits IS DISTINCT FROM b.price_chargeable - coalesce(b.cancellation_penalty, 0) OR l.entries <> 1
                      ELSE coalesce(l.credits, 0) <> 0 END
           ORDER BY 1`,
  },
  {
    name: 'card_ledger_entries',
    rule: 'each confirmed or cancelled card booking with a price has a card_charge debit and a card_payment credit of its price; no other booking has card entries that move money',
    sql: `SELECT coalesce(b.id, l.booking_id) AS booking_id, coalesce(b.client_id, l.client_id) AS client_id, b.status, b.price_chargeable, l.charged, l.paid, l.entries
            FROM (SELECT * FROM booking.bookings WHERE payment_method = 'credit_card' AND NOT sandbox) b
            FULL JOIN (SELECT client_id, booking_id, sum(debit) FILTER (WHERE kind = 'card_charge') AS charged,
                              sum(credit) FILTER (WHERE kind = 'card_payment') AS paid, count(*) AS entries
                         FROM accounting.entries WHERE kind IN ('card_charge', 'card_payment') GROUP BY client_id, booking_id) l
              ON l.booking_id = b.id AND l.client_id = b.client_id
           WHERE CASE WHEN b.status IN ('confirmed', 'cancelled') AND b.price_chargeable > 0
                      THEN l.charged IS DISTINCT FROM b.price_chargeable OR l.paid IS DISTINCT FROM b.price_chargeable OR l.entries <> 2
                      ELSE coalesce(l.charged, 0) <> 0 OR coalesce(l.paid, 0) <> 0 END
           ORDER BY 1`,
  },
  {
    name: 'no_active_holds',
    rule: 'no accounting.holds row is still active once every booking has ended',
    sql: `SELECT h.client_id, h.booking_id, h.amount, h.created_at, b.status, b.step
            FROM accounting.holds h LEFT JOIN booking.bookings b ON b.id = h.booking_id
           WHERE h.status = 'active' ORDER BY h.booking_id`,
  },
  {
    name: 'holds_match_bookings',
    rule: "a hold is for an account booking, of its price; captured only for a confirmed or cancelled one, released only for a failed one",
    sql: `SELECT h.client_id, h.booking_id, h.amount, h.status AS hold_status, b.status AS booking_status, b.payment_method, b.price_chargeable
            FROM accounting.holds h LEFT JOIN booking.bookings b ON b.id = h.booking_id AND b.client_id = h.client_id
           WHERE h.status <> 'active'
             AND (b.id IS NULL OR b.sandbox OR b.payment_method <> 'account' OR h.amount <> b.price_chargeable
                  OR (h.status = 'captured' AND b.status NOT IN ('confirmed', 'cancelled'))
                  OR (h.status = 'released' AND b.status <> 'failed'))
           ORDER BY h.booking_id`,
  },
  {
    name: 'account_totals_match_ledger',
    rule: "each account row's running totals equal its entries and active holds",
    sql: `SELECT a.client_id, a.total_debit, e.debits, a.total_credit, e.credits, a.total_held, h.held, a.entry_count, e.entries
            FROM accounting.accounts a
            LEFT JOIN (SELECT client_id, sum(debit) AS debits, sum(credit) AS credits, count(*) AS entries FROM accounting.entries GROUP BY client_id) e
              ON e.client_id = a.client_id
            LEFT JOIN (SELECT client_id, sum(amount) AS held FROM accounting.holds WHERE status = 'active' GROUP BY client_id) h ON h.client_id = a.client_id
           WHERE a.total_debit <> coalesce(e.debits, 0) OR a.total_credit <> coalesce(e.credits, 0)
              OR a.total_held <> coalesce(h.held, 0) OR a.entry_count <> coalesce(e.entries, 0)`,
  },
  {
    name: 'promo_uses_match_redemptions',
    rule: 'per world, promo.codes.uses (live) and sandbox_uses = its redemptions of that world, and never more than max_uses',
    requires: ['promo.codes.sandbox_uses'],
    sql: `SELECT c.code, c.uses, c.sandbox_uses, c.max_uses,
                 count(r.booking_id) FILTER (WHERE NOT r.sandbox)::int AS live_redemptions,
                 count(r.booking_id) FILTER (WHERE r.sandbox)::int AS sandbox_redemptions
            FROM promo.codes c LEFT JOIN promo.redemptions r ON r.code = c.code
           GROUP BY c.code, c.uses, c.sandbox_uses, c.max_uses
          HAVING c.uses <> count(r.booking_id) FILTER (WHERE NOT r.sandbox) OR c.sandbox_uses <> count(r.booking_id) FILTER (WHERE r.sandbox)
              OR (c.max_uses IS NOT NULL AND (c.uses > c.max_uses OR c.sandbox_uses > c.max_uses))`,
  },
  {
    name: 'promo_redemptions_match_bookings',
    rule: 'a redemption per confirmed or cancelled booking with a promo code (same code and discount), and none for any other booking',
    sql: `SELECT coalesce(b.id, r.booking_id) AS booking_id, coalesce(b.client_id, r.client_id) AS client_id, r.code AS redeemed,
                 b.promo_code, b.status, r.discount, b.promo_discount, (SELECT status FROM booking.bookings x WHERE x.id = r.booking_id) AS redeemed_booking_status
            FROM promo.redemptions r
            FULL JOIN (SELECT * FROM booking.bookings WHERE promo_code IS NOT NULL AND status IN ('confirmed', 'cancelled')) b
              ON b.id = r.booking_id AND b.client_id = r.client_id
           WHERE r.booking_id IS NULL OR b.id IS NULL OR upper(r.code) <> upper(b.promo_code) OR r.discount <> b.promo_discount
           ORDER BY 1`,
  },
  {
    name: 'vendor_allotments_match_vendor_bookings',
    rule: "the vendors' rooms_sold of each hotel, room and night = rooms of their bookings not cancelled covering that night (the sandbox desk's take none)",
    sql: `WITH live AS (
            SELECT b.vendor, b.hotel_code, r.room_id, n::date AS night, r.rooms
              FROM vendor_simulator.bookings b JOIN vendor_simulator.booking_rooms r USING (reference)
             CROSS JOIN generate_series(b.check_in, b.check_out - 1, interval '1 day') n
             WHERE b.status <> 'CANCELLED' AND b.vendor <> 'sandbox'),
          sold AS (SELECT vendor, hotel_code, room_id, night, sum(rooms)::int AS rooms FROM live GROUP BY vendor, hotel_code, room_id, night)
          SELECT vendor, hotel_code, room_id, night, coalesce(a.rooms_sold, 0) AS rooms_sold, coalesce(s.rooms, 0) AS booked_rooms
            FROM vendor_simulator.allotments a FULL JOIN sold s USING (vendor, hotel_code, room_id, night)
           WHERE coalesce(a.rooms_sold, 0) <> coalesce(s.rooms, 0)
           ORDER BY hotel_code, night`,
  },
  {
    name: 'one_vendor_booking_per_booking',
    rule: 'each confirmed live booking has exactly one vendor booking not cancelled (client reference HB<id>), the one rates recorded; no other booking has one',
    sql: `WITH vendor AS (
            SELECT substring(client_reference FROM 3)::int AS booking_id, reference, count(*) OVER (PARTITION BY client_reference) AS live
              FROM vendor_simulator.bookings WHERE status <> 'CANCELLED' AND vendor <> 'sandbox' AND client_reference ~ '^HB[0-9]+$'),
          confirmed AS (SELECT id FROM booking.bookings WHERE status = 'confirmed' AND NOT sandbox)
          SELECT coalesce(c.id, v.booking_id) AS booking_id, (SELECT status FROM booking.bookings WHERE id = coalesce(c.id, v.booking_id)) AS status,
                 s.reference AS recorded_reference, v.reference AS vendor_reference, v.live
            FROM confirmed c
            LEFT JOIN rates.supplier_bookings s ON s.booking_id = c.id
            FULL JOIN vendor v ON v.booking_id = c.id
           WHERE c.id IS NULL OR v.reference IS NULL OR v.live > 1 OR s.reference IS DISTINCT FROM v.reference
           ORDER BY 1`,
  },
  {
    name: 'supplier_bookings_match_bookings',
    rule: 'a confirmed booking has a confirmed supplier booking of its rooms and dates; any other booking none that is not cancelled',
    sql: `SELECT coalesce(b.id, s.booking_id) AS booking_id, b.status, b.step, s.status AS supplier_status, s.rooms AS supplier_rooms,
                 jsonb_array_length(b.rooms) AS rooms, s.check_in AS supplier_check_in, b.check_in, s.check_out AS supplier_check_out, b.check_out
            FROM booking.bookings b FULL JOIN rates.supplier_bookings s ON s.booking_id = b.id
           WHERE CASE WHEN b.id IS NULL THEN s.status <> 'cancelled'
                      WHEN b.status = 'confirmed' THEN s.booking_id IS NULL OR s.status <> 'confirmed' OR s.rooms <> jsonb_array_length(b.rooms)
                                                       OR s.check_in <> b.check_in OR s.check_out <> b.check_out
                      ELSE s.booking_id IS NOT NULL AND s.status <> 'cancelled' END
           ORDER BY 1`,
  },
  {
    name: 'rooms_sold_match_live_bookings',
    rule: "rooms sold over all the vendors' allotments = rooms × nights of the confirmed bookings (not sandbox)",
    sql: `SELECT * FROM (
            SELECT (SELECT coalesce(sum(rooms_sold), 0) FROM vendor_simulator.allotments)::int AS rooms_sold,
                   (SELECT coalesce(sum(jsonb_array_length(rooms) * (check_out - check_in)), 0) FROM booking.bookings
                     WHERE status = 'confirmed' AND NOT sandbox)::int AS live_room_nights) t
           WHERE rooms_sold <> live_room_nights`,
  },
  {
    name: 'one_booking_per_idempotency_key',
    rule: 'at most one booking per (client, idempotency_key)',
    sql: `SELECT client_id, idempotency_key, array_agg(id ORDER BY id) AS bookings FROM booking.bookings
           WHERE idempotency_key IS NOT NULL GROUP BY client_id, idempotency_key HAVING count(*) > 1`,
  },
  {
    name: 'one_booking_per_client_reference',
    rule: 'at most one booking per (client, client_reference)',
    sql: `SELECT client_id, client_reference, array_agg(id ORDER BY id) AS bookings FROM booking.bookings
           WHERE client_reference IS NOT NULL GROUP BY client_id, client_reference HAVING count(*) > 1`,
  },
  {
    name: 'card_charges_match_bookings',
    rule: 'the sandbox card processor kept the price of a confirmed card booking, the penalty of a cancelled one, nothing of a failed one',
    requires: ['booking.sandbox_card_charges', 'booking.sandbox_card_refunds', 'booking.bookings.payment_key'],
    sql: `WITH refunds AS (SELECT payment_id, sum(amount) AS refunded FROM booking.sandbox_card_refunds GROUP BY payment_id),
               card AS (
            SELECT b.id AS booking_id, b.client_id, b.status, b.price_chargeable, coalesce(b.cancellation_penalty, 0) AS penalty,
                   b.cc_payment_id, b.payment_key, c.payment_id, c.amount AS charged, coalesce(r.refunded, 0) AS refunded
              FROM booking.bookings b
              LEFT JOIN booking.sandbox_card_charges c ON c.payment_key = b.payment_key
              LEFT JOIN refunds r ON r.payment_id = c.payment_id
             WHERE b.payment_method = 'credit_card' AND NOT b.sandbox)
          SELECT * FROM card
           WHERE CASE WHEN status IN ('confirmed', 'cancelled') AND price_chargeable > 0
                      THEN payment_id IS NULL OR payment_id IS DISTINCT FROM cc_payment_id OR charged <> price_chargeable
                           OR refunded <> CASE WHEN status = 'cancelled' THEN price_chargeable - penalty ELSE 0 END
                      ELSE coalesce(charged, 0) - refunded <> 0 END
           ORDER BY booking_id`,
  },
  {
    name: 'card_charges_have_bookings',
    rule: 'the sandbox card processor keeps no money under a key that no booking recorded',
    requires: ['booking.sandbox_card_charges', 'booking.sandbox_card_refunds', 'booking.bookings.payment_key'],
    sql: `SELECT c.payment_key, c.payment_id, c.amount, coalesce(r.refunded, 0) AS refunded
            FROM booking.sandbox_card_charges c
            LEFT JOIN (SELECT payment_id, sum(amount) AS refunded FROM booking.sandbox_card_refunds GROUP BY payment_id) r ON r.payment_id = c.payment_id
           WHERE c.payment_id IS NOT NULL AND c.amount - coalesce(r.refunded, 0) <> 0
             AND NOT EXISTS (SELECT 1 FROM booking.bookings b WHERE b.payment_key = c.payment_key)`,
  },
];

/**
 * Whether a table (schema.table) or a column (schema.table.column) exists.
 * @param {Sql} sql
 * @param {string} name
 */
async function exists(sql, name) {
  const [schema, table, column] = name.split('.');
  const { rows } = await sql.query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND ($3::text IS NULL OR column_name = $3) LIMIT 1`,
    [schema, table, column ?? null],
  );
  return rows.length > 0;
}

/**
 * Runs every SQL check: [{name, rule, rows}] for each check that found rows, and the names of those skipped.
 * @param {Sql} sql
 */
async function runSqlChecks(sql) {
  /** @type {Violation[]} */
  const violations = [];
  /** @type {string[]} */
  const skipped = [];
  for (const check of SQL_CHECKS) {
    const missing = [];
    for (const name of check.requires ?? []) if (!(await exists(sql, name))) missing.push(name);
    if (missing.length) {
      skipped.push(`${check.name} (no ${missing.join(', ')})`);
      continue;
    }
    const { rows } = await sql.query(check.sql);
    if (rows.length) violations.push({ name: check.name, rule: check.rule, rows });
  }
  return { violations, skipped };
}

/**
 * Bookings whose saga has not ended (created up to `createdBefore` when given; a
 * sandbox `supplier_pending` booking waits for its vendor by design), and a
 * signature of the bookings table that changes with any write to it.
 * @param {Sql} sql
 * @param {number | null} createdBefore
 */
async function sagaState(sql, createdBefore) {
  /** @type {import('pg').QueryResult<SagaRow>} */
  const { rows } = await sql.query(
    `SELECT id, client_id, status, step, payment_method, promo_code, lease_until, updated_at, created_at
       FROM booking.bookings
      WHERE step NOT IN ${FINAL} AND NOT (sandbox AND test_scenario = 'supplier_pending')
        AND ($1::timestamptz IS NULL OR created_at <= $1::timestamptz)
      ORDER BY id`,
    [createdBefore === null ? null : new Date(createdBefore)],
  );
  const { rows: [signature] } = await sql.query(`SELECT count(*)::int AS n, max(updated_at) AS last FROM booking.bookings`);
  return { unfinished: rows, signature: `${signature.n}@${signature.last?.toISOString()}` };
}

/**
 * Waits until every saga (of the bookings created up to createdBefore, when given)
 * has ended and the bookings table has been still for stillMs, and at least
 * settleMs after `since`. endedAt is when that state was first seen (null if not
 * within maxWaitMs); pendingAtBound the bookings still under way boundMs after since.
 * @param {Sql} sql
 * @param {{ since: number, boundMs: number, maxWaitMs: number, createdBefore?: number | null, stillMs?: number, settleMs?: number }} options
 * @returns {Promise<Waited>}
 */
async function waitForSagas(sql, { since, boundMs, maxWaitMs, createdBefore = null, stillMs = 0, settleMs = 0 }) {
  /** @type {number | null} */
  let endedAt = null;
  /** @type {string | null} */
  let lastSignature = null;
  /** @type {SagaRow[] | null} */
  let pendingAtBound = null;
  for (;;) {
    const now = Date.now();
    const { unfinished, signature } = await sagaState(sql, createdBefore);
    if (unfinished.length) {
      endedAt = null;
      if (!pendingAtBound && now - since > boundMs) pendingAtBound = unfinished;
    } else if (endedAt === null || (stillMs && signature !== lastSignature)) {
      endedAt = now;
    }
    lastSignature = signature;
    if (endedAt !== null && now - endedAt >= stillMs && now - since >= settleMs) return { endedAt, pendingAtBound };
    if (now - since > maxWaitMs) return { endedAt: null, pendingAtBound: pendingAtBound ?? unfinished };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A cancellation the platform took and is finishing, answered 503 because its saga outlived
 * the call (a slow machine, not an unavailable platform): the client repeats it for its
 * reference, and the round's bound on every booking's end checks that it is finished.
 * @param {HttpRecord} record
 */
const underWay = (record) => record.status === 503 && record.op === 'cancel' && /recorded and under way/.test(record.message ?? '');

/**
 * Violations in what a round's HTTP answers were: 5xx other than 503 with Retry-After, and 503 or no answer outside a fault.
 * @param {HttpRecord[]} records
 * @param {{ from: number, to: number } | null} faultWindow
 * @param {number} roundStart
 * @returns {Violation[]}
 */
function httpViolations(records, faultWindow, roundStart) {
  /** @param {HttpRecord} record */
  const inWindow = (record) => faultWindow && record.endedAt >= faultWindow.from && record.startedAt <= faultWindow.to;
  /**
   * @param {string} name
   * @param {string} rule
   * @param {HttpRecord[]} matching
   * @returns {Violation[]}
   */
  const grouped = (name, rule, matching) => {
    // The first answer of each group says why (its message) and how long it took: what the next person needs to find the cause.
    /** @type {Map<string, { op: string, status: number, code: string | null, count: number, first_at_s: number, first_took_s: number, first_message: string | null }>} */
    const groups = new Map();
    for (const record of matching) {
      const key = `${record.op} ${record.status} ${record.code}`;
      const group = groups.get(key) ?? {
        op: record.op,
        status: record.status,
        code: record.code,
        count: 0,
        first_at_s: +((record.startedAt - roundStart) / 1000).toFixed(1),
        first_took_s: +((record.endedAt - record.startedAt) / 1000).toFixed(1),
        first_message: record.message,
      };
      group.count += 1;
      groups.set(key, group);
    }
    return groups.size ? [{ name, rule, rows: [...groups.values()] }] : [];
  };
  return [
    ...grouped(
      'no_5xx_but_503_with_retry_after',
      'no HTTP answer ≥ 500 except 503 carrying Retry-After',
      records.filter((record) => record.status >= 500 && !(record.status === 503 && record.retryAfter)),
    ),
    ...grouped(
      'unavailable_only_during_a_fault',
      `503 or no answer only during a fault and up to its grace after the platform is ready again${faultWindow ? '' : ' (this round has no fault)'}`,
      records.filter((record) => (record.status === 503 || record.status === 0) && !inWindow(record) && !underWay(record)),
    ),
  ];
}

/**
 * What the platform answered bookings and cancellations, against the bookings as they ended.
 * @param {Sql} sql
 * @param {import('./load').Load['answers']} answers
 * @returns {Promise<Violation[]>}
 */
async function answerViolations(sql, answers) {
  const entries = [...answers.bookings.values()];
  const { rows } = await sql.query(`SELECT id, client_id, status, idempotency_key, client_reference FROM booking.bookings WHERE idempotency_key = ANY($1)`, [
    entries.map((entry) => entry.key),
  ]);
  const byKey = new Map(rows.map((row) => [`${row.client_id}|${row.idempotency_key}`, row]));
  const { rows: byIdRows } = await sql.query(`SELECT id, client_id, status FROM booking.bookings`);
  const byId = new Map(byIdRows.map((row) => [row.id, row]));
  /** @type {object[]} */
  const identity = [];
  /** @type {object[]} */
  const outcome = [];
  for (const entry of entries) {
    const booking = byKey.get(`${entry.clientId}|${entry.key}`);
    const ok = entry.answers.filter((answer) => answer.status >= 200 && answer.status < 300);
    const ids = [...new Set(ok.map((answer) => answer.id))];
    if (ids.length > 1 || (ids.length && (!booking || booking.id !== ids[0] || booking.client_reference !== entry.reference))) {
      identity.push({ idempotency_key: entry.key, answered_ids: ids, booking_id: booking?.id ?? null, booking_reference: booking?.client_reference ?? null });
    }
    if (!booking) continue;
    const toldConfirmed = ok.some((answer) => answer.bookingStatus === 'confirmed');
    const toldFailed = entry.answers.find((answer) => answer.status >= 400 && answer.status < 500 && answer.code !== null && BUSINESS_FAILURES.includes(answer.code));
    if ((toldConfirmed && !['confirmed', 'cancelled'].includes(booking.status)) || (toldFailed && booking.status !== 'failed')) {
      outcome.push({ booking_id: booking.id, idempotency_key: entry.key, answered: toldFailed && !toldConfirmed ? `${toldFailed.status} ${toldFailed.code}` : 'confirmed', status: booking.status });
    }
  }
  /** @type {object[]} */
  const cancelled = [];
  for (const answer of answers.cancellations) {
    const booking = byId.get(answer.bookingId);
    if (answer.status === 200 && answer.cancelled && booking?.status !== 'cancelled') cancelled.push({ booking_id: answer.bookingId, answered: 'cancelled', status: booking?.status ?? null });
  }
  /**
   * @param {string} name
   * @param {string} rule
   * @param {object[]} found
   */
  const violation = (name, rule, found) => (found.length ? [{ name, rule, rows: found }] : []);
  return [
    ...violation('book_answers_name_one_booking', 'every 2xx answer for an idempotency key names the one booking made with that key and client_reference', identity),
    ...violation('book_answers_match_outcome', 'a booking answered confirmed ends confirmed or cancelled; one answered with a business failure ends failed', outcome),
    ...violation('cancel_answers_match_outcome', 'a booking whose cancellation was answered 200 ends cancelled', dedupe(cancelled)),
  ];
}

/**
 * The rows without repeats (rows alike in JSON are one).
 * @template T
 * @param {T[]} rows
 */
function dedupe(rows) {
  return [...new Map(rows.map((row) => [JSON.stringify(row), row])).values()];
}

/**
 * Each client's balance from GET /api/accounting/balance = credit limit + credits − debits − holds from the ledger.
 * @param {Sql} sql
 * @param {string} gateway
 * @param {ChaosClient[]} clients
 * @returns {Promise<Violation[]>}
 */
async function balanceViolations(sql, gateway, clients) {
  /** @type {object[]} */
  const found = [];
  for (const client of clients) {
    const { rows: [ledger] } = await sql.query(
      `SELECT (SELECT coalesce(sum(credit), 0) FROM accounting.entries WHERE client_id = $1)::text AS credits,
              (SELECT coalesce(sum(debit), 0) FROM accounting.entries WHERE client_id = $1)::text AS debits,
              (SELECT coalesce(sum(amount), 0) FROM accounting.holds WHERE client_id = $1 AND status = 'active')::text AS holds`,
      [client.client_id],
    );
    // Thousandths: exact for every currency (KWD has three decimals).
    /** @param {string | number} value */
    const milli = (value) => Math.round(Number(value) * 1000);
    /** @type {Record<string, number>} */
    const expected = { creditLimit: milli(client.creditLimit), credits: milli(ledger.credits), debits: milli(ledger.debits), holds: milli(ledger.holds) };
    expected.available = expected.creditLimit + expected.credits - expected.debits - expected.holds;
    /** @type {Pick<import('../lib/https').Answer, 'status' | 'body'> | undefined} */
    let answer;
    for (let attempt = 0; attempt < 3; attempt++) {
      answer = await request(gateway, 'GET', '/api/accounting/balance', { headers: { authorization: client.backend_token } }).catch((error) => ({ status: 0, body: { code: error.code } }));
      if (answer.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    // (Asked three times: there is an answer.)
    answer = /** @type {Pick<import('../lib/https').Answer, 'status' | 'body'>} */ (answer);
    if (answer.status !== 200) {
      found.push({ client_id: client.client_id, answered: `${answer.status} ${answer.body?.code ?? ''}`.trim() });
      continue;
    }
    const api = answer.body.data;
    const wrong = Object.keys(expected).filter((field) => milli(api[field]) !== expected[field]);
    if (api.currency !== client.currency) wrong.push('currency');
    if (wrong.length) {
      found.push({ client_id: client.client_id, fields: wrong.join(','), api: JSON.stringify(api), ledger: JSON.stringify(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v / 1000]))) });
    }
  }
  return found.length ? [{ name: 'api_balance_matches_ledger', rule: 'GET /api/accounting/balance = credit limit + credits − debits (− holds) of the ledger', rows: found }] : [];
}

/**
 * What the run made, so a reader can see that the checks had something to check.
 * @param {Sql} sql
 */
async function coverage(sql) {
  const { rows: [made] } = await sql.query(
    `SELECT count(*)::int AS bookings,
            count(*) FILTER (WHERE status = 'confirmed')::int AS confirmed, count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled, count(*) FILTER (WHERE status = 'pending')::int AS pending,
            count(*) FILTER (WHERE payment_method = 'account')::int AS account, count(*) FILTER (WHERE payment_method = 'credit_card')::int AS card,
            count(*) FILTER (WHERE promo_code IS NOT NULL)::int AS promo, count(*) FILTER (WHERE price_chargeable = 0)::int AS free,
            count(*) FILTER (WHERE jsonb_array_length(rooms) > 1)::int AS multi_room
       FROM booking.bookings`,
  );
  const { rows: failures } = await sql.query(`SELECT failure_code, count(*)::int AS n FROM booking.bookings WHERE status = 'failed' GROUP BY 1 ORDER BY 2 DESC`);
  return (
    `bookings made: ${made.bookings} (confirmed ${made.confirmed}, failed ${made.failed}, cancelled ${made.cancelled}, pending ${made.pending}); ` +
    `account ${made.account}, card ${made.card}; with a promo code ${made.promo} (free ${made.free}); several rooms ${made.multi_room}; ` +
    `failed for ${failures.map((row) => `${row.failure_code} ×${row.n}`).join(', ') || 'nothing'}`
  );
}

/**
 * Every app's log file as written to disk, after all rounds (crashes and restarts
 * included): readable by its owner only, and no client key or token, card token,
 * e-mail or phone number of the run in any line.
 * @param {string} logDir
 * @param {ChaosClient[]} clients
 */
function logViolations(logDir, clients) {
  const secrets = [
    ...clients.flatMap((client) => [
      { what: `client ${client.client_id} api_key`, value: client.api_key },
      { what: `client ${client.client_id} sandbox_api_key`, value: client.sandbox_api_key },
      { what: `client ${client.client_id} backend_token`, value: client.backend_token },
    ]),
    { what: 'guest e-mail', value: CONTACT.email },
    { what: 'guest phone', value: CONTACT.phone },
    { what: 'card token', value: 'tok_visa' },
    { what: 'card token', value: 'tok_declined' },
  ];
  /** @type {{ file: string, mode: string }[]} */
  const loose = [];
  /** @type {{ file: string, what: string }[]} */
  const found = [];
  let lines = 0;
  const files = fs.readdirSync(logDir).filter((name) => name.endsWith('.log'));
  for (const file of files) {
    const full = path.join(logDir, file);
    const mode = fs.statSync(full).mode & 0o777;
    if (mode !== 0o600) loose.push({ file, mode: mode.toString(8) });
    const text = fs.readFileSync(full, 'utf8');
    lines += text.split('\n').length - 1;
    for (const secret of secrets) if (text.includes(secret.value)) found.push({ file, what: secret.what });
  }
  /** @type {Violation[]} */
  const violations = [];
  if (files.length === 0) violations.push({ name: 'log_files_written', rule: 'every app writes a log file', rows: [{ logDir }] });
  if (loose.length) violations.push({ name: 'log_files_owner_only', rule: 'every log file has mode 600', rows: loose });
  if (found.length) violations.push({ name: 'no_secrets_in_logs', rule: 'no key, token, card token, e-mail or phone in a log file', rows: found });
  return { files: files.length, lines, violations };
}

module.exports = { SQL_CHECKS, logViolations, coverage, runSqlChecks, waitForSagas, httpViolations, answerViolations, balanceViolations };
