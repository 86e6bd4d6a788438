// The one door from the simulator to libs/inventory: the hotel catalog, the three vendors'
// definitions and their pricing are still the platform's (search and rates use them in
// process today). When they move into the simulator, this file is what changes.
export {
  SeededRandom,
  VENDORS,
  VENDOR_CODES,
  allotmentCapacity,
  description,
  gazetteer,
  generatedHotel,
  hash32,
  hotelById,
  hotelCountFor,
  listOffers,
  parseVendorLatencies,
  priceEpoch,
  priceEpochStart,
  priceOffer,
  roomCodeOf,
  roomCodeParts,
  roomIdOfCode,
  soldOutKey,
  unit,
  vendorCarries,
} from '@hotel/inventory';
export type { Hotel, Language, OfferKey, RoomType, Stay, Vendor, VendorCode } from '@hotel/inventory';
