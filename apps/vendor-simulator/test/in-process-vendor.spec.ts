import { gazetteer, hotelsForCity, priceEpoch } from '@hotel/inventory';
import { listOffers, priceOffer } from '../src/inventory/pricing';
import { VENDORS, VENDOR_CODES } from '../src/inventory/vendors';
import { InProcessVendor } from './in-process-vendor';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The tests' in-process vendor answers as the simulator's vendor of its code prices. */
describe('InProcessVendor', () => {
  const hotels = hotelsForCity(gazetteer().cityById.get(2988507)!);
  const stay = { check_in: day(30), check_out: day(33), rooms: [{ adults: 2, children: 0, children_ages: [] }] };
  const context = { epoch: priceEpoch(), issuedAt: new Date() };

  it('answers a batch of hotels with each hotel’s offers and prices, as the vendor makes them', async () => {
    for (const code of VENDOR_CODES) {
      const vendor = VENDORS[code];
      const answer = await new InProcessVendor(vendor).availability(hotels, stay, { includeMemberRates: true, context });
      expect(answer).toHaveLength(hotels.length);
      hotels.forEach((hotel, i) => {
        const keys = listOffers(hotel, vendor, stay, { soldOut: new Set(), includeMemberRates: true });
        expect(answer[i]).toEqual(keys.map((key) => ({ key, rate: priceOffer(hotel, key, stay, context) })));
      });
    }
  });

  it('prices and rechecks one offer; a sold-out room type fails the recheck', async () => {
    const supplier = new InProcessVendor(VENDORS.atlas);
    const [hotel, [offer]] = (await supplier.availability(hotels, stay, { includeMemberRates: true, context }))
      .map((offers, i) => [hotels[i], offers] as const)
      .find(([, offers]) => offers.length > 0)!;
    expect(await supplier.price(hotel, offer.key, stay, context)).toEqual(offer.rate);
    expect(await supplier.recheck(hotel, offer.key, stay)).toEqual(offer.key);
    supplier.soldOut.add(`atlas:${hotel.id}:${offer.key.roomId}`);
    expect(await supplier.recheck(hotel, offer.key, stay)).toBeNull();
  });

  it('books as the sandbox scenario says, and answers status and cancel from the booking as recorded', async () => {
    const supplier = new InProcessVendor(VENDORS.cobalt, { pendingSeconds: 5 });
    const order = { bookingId: 42, hotelId: hotels[0].id, roomId: 1, checkIn: day(30), checkOut: day(32), rooms: 1, sandbox: true };
    expect(await supplier.book(order)).toEqual({ reference: expect.stringMatching(/^COB-42-[0-9A-F]{6}$/), status: 'confirmed' });
    await expect(supplier.book({ ...order, testScenario: 'supplier_error' })).rejects.toMatchObject({ code: 'SUPPLIER_ERROR' });
    const pending = await supplier.book({ ...order, testScenario: 'supplier_pending' });
    expect(pending).toEqual({ reference: expect.stringMatching(/^COB-42-/), status: 'pending' });

    const placed = { bookingId: 42, reference: pending.reference, status: pending.status, sandbox: true, placedAt: new Date(1_000_000) };
    expect(await supplier.status(placed, 1_000_000 + 4_999)).toEqual({ reference: pending.reference, status: 'pending' });
    expect(await supplier.status(placed, 1_000_000 + 5_000)).toEqual({ reference: pending.reference, status: 'confirmed' });
    expect(await supplier.status({ ...placed, status: 'cancelled' }, 1_000_000 + 5_000)).toEqual({ reference: pending.reference, status: 'cancelled' });
    expect(await supplier.cancel(placed)).toEqual({ reference: pending.reference, status: 'cancelled' });
  });

});
