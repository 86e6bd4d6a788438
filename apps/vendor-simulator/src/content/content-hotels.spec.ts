import { VENDORS, hotelById, listOffers, vendorCarries } from '../inventory/simulated-inventory';
import { selectHotelCodes, vendorHotelCodes } from './content-hotels';

describe("a vendor's hotels", () => {
  it('are those it makes offers for: listOffers offers nothing at a hotel it does not carry', () => {
    const stay = { check_in: '2027-06-15', check_out: '2027-06-17', rooms: [{ adults: 2, children: 0, children_ages: [] }] };
    let carried = 0;
    let offered = 0;
    for (const code of vendorHotelCodes(VENDORS.atlas).slice(0, 400)) {
      const offers = listOffers(hotelById(code)!, VENDORS.cobalt, stay, { soldOut: new Set(), includeMemberRates: true });
      if (vendorCarries(VENDORS.cobalt, code)) carried++;
      else expect(offers).toEqual([]);
      if (offers.length > 0) offered++;
    }
    expect(carried).toBeGreaterThan(100);
    expect(offered).toBeGreaterThan(100);
  });

  it('differ by vendor, by their coverage', () => {
    const [atlas, borealis, cobalt] = Object.values(VENDORS).map((vendor) => vendorHotelCodes(vendor).length);
    expect(atlas).toBeGreaterThan(borealis);
    expect(borealis).toBeGreaterThan(cobalt);
  });

  it('are selected by codes (those carried, ascending), country and destination', () => {
    const [first, second] = vendorHotelCodes(VENDORS.borealis);
    const notCarried = vendorHotelCodes(VENDORS.atlas).find((code) => !vendorCarries(VENDORS.borealis, code))!;
    expect(selectHotelCodes(VENDORS.borealis, { codes: [second, notCarried, first, 999] })).toEqual([first, second].sort((a, b) => a - b));
    const country = hotelById(first)!.city.countryCode;
    const inCountry = selectHotelCodes(VENDORS.borealis, { countryCode: country.toLowerCase() });
    expect(inCountry.length).toBeGreaterThan(0);
    for (const code of inCountry.slice(0, 50)) expect(hotelById(code)!.city.countryCode).toBe(country);
    expect(selectHotelCodes(VENDORS.borealis, { destinationCode: String(hotelById(first)!.city.geonameId) })).toContain(first);
    expect(selectHotelCodes(VENDORS.borealis, { lastUpdateTime: '2099-01-01' })).toEqual([]);
  });
});
