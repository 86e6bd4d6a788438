import { TestSystem } from './system';

/** A date `offset` days from today, YYYY-MM-DD. */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export const TWO_ADULTS = [{ adults: 2, children: 0, children_ages: [] }];
export const GUEST = { rooms: [{ lead_first_name: 'Ada', lead_last_name: 'Lovelace' }], email: 'ada@example.com', phone: '+44 20 7946 0000' };
export const CARD = { payment_token: 'tok_visa', payment_first_name: 'Ada', payment_last_name: 'Lovelace', payment_postal_code: 'N1 9GU', payment_expiration: '12/30' };

/** Stays that never share a night, so bookings do not compete for one night's allotment. */
export function staySequence(firstOffset: number, nights = 2) {
  let offset = firstOffset;
  return () => {
    offset += nights + 1;
    return { check_in: day(offset), check_out: day(offset + nights), rooms: TWO_ADULTS };
  };
}

export type PaymentMethod = 'account' | 'credit_card';

export interface Prebooked {
  /** The V1 book path of the prebooked rate. */
  path: string;
  prebook: any;
  hotelId: number;
}

/** Searches, reads a hotel's rates and prebooks its first rate (V1). */
export async function prebookV1(
  system: TestSystem,
  headers: Record<string, string>,
  stay: { check_in: string; check_out: string; rooms: unknown[] },
  options: { method?: PaymentMethod; hotelIndex?: number; query?: string } = {},
): Promise<Prebooked> {
  const method = options.method ?? 'account';
  const { sessionId, hotelId, rates } = await system.hotelRates(headers, stay, options.hotelIndex ?? 0);
  const rate = rates[0];
  const prebook = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rate.id}/${method}${options.query ?? ''}`, { headers });
  if (prebook.status !== 200) throw new Error(`prebook answered ${prebook.status}: ${JSON.stringify(prebook.body)}`);
  return { path: `/book/${hotelId}/${sessionId}/${rate.id}/${method}`, prebook: prebook.body.data, hotelId };
}

/** Polls a booking's row until its saga reached a final step. */
export async function settledBooking(system: TestSystem, id: number, timeoutMs = 20_000): Promise<{ id: number; status: string; step: string }> {
  const { queryTestDatabase } = await import('@hotel/testing');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await queryTestDatabase<{ id: number; status: string; step: string }>(system.database.url, 'SELECT id, status, step FROM booking.bookings WHERE id = $1', [id]);
    if (['done', 'failed', 'cancelled'].includes(row.step)) return row;
    if (Date.now() > deadline) throw new Error(`booking ${id} did not settle: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
