// The simulator's inventory: the platform's hotel catalog (the simulated vendors carry its
// generated hotels), and the vendors' own definitions and pricing, which are the simulator's.
export { SeededRandom, description, gazetteer, generatedHotel, hash32, hotelById, hotelCountFor, priceEpoch, priceEpochStart, roomCodeOf, roomCodeParts, roomIdOfCode, unit } from '@hotel/inventory';
export type { Hotel, Language, OfferKey, RoomType, Stay } from '@hotel/inventory';
export { VENDORS, VENDOR_CODES, parseVendorLatencies, type Vendor, type VendorCode } from './vendors';
export { allotmentCapacity, listOffers, priceOffer, soldOutKey, vendorCarries } from './pricing';
