// Readers of the vendor's answers: every 2xx body passes one before the client returns it,
// so a body of the wrong shape is a `malformed` error, never a half-read success.
import { decimal, flag, integer, list, looseText, oneOf, optional, Reader, record, text } from './reader';
import type {
  AuditData,
  AvailabilityRS,
  Booking,
  BookingListRS,
  BookingRS,
  BookingStatus,
  CancellationPolicy,
  CheckRateRS,
  CodedAmount,
  ContentHotel,
  ContentHotelsRS,
  ContentText,
  Hotel,
  Pax,
  Rate,
  Room,
  Tax,
  VendorError,
} from './wire';

const BOOKING_STATUSES: readonly BookingStatus[] = ['NEW', 'PRECONFIRMED', 'CONFIRMED', 'TO_BE_UPDATED', 'CANCELLED', 'TO_BE_CANCELLED'];

export const readAuditData = record<AuditData>({
  processTime: optional(looseText),
  timestamp: optional(looseText),
  requestHost: optional(looseText),
  serverId: optional(looseText),
  environment: optional(looseText),
  release: optional(looseText),
  token: optional(looseText),
});

export const readVendorError = record<VendorError>({ code: optional(text), message: optional(text) });

const readPax = record<Pax>({
  roomId: optional(integer),
  type: oneOf(['AD', 'CH']),
  age: optional(integer),
  name: optional(text),
  surname: optional(text),
});

const readCancellationPolicy = record<CancellationPolicy>({
  amount: decimal,
  from: text,
  hotelAmount: optional(decimal),
  hotelCurrency: optional(text),
});

const readTax = record<Tax>({
  included: optional(flag),
  percent: optional(decimal),
  amount: optional(decimal),
  currency: optional(text),
  type: optional(oneOf(['TAX', 'FEE'])),
  clientAmount: optional(decimal),
  clientCurrency: optional(text),
});

const readCodedAmount = record<CodedAmount>({ code: optional(text), name: optional(text), amount: optional(decimal) });

const readRate = record<Rate>({
  rateKey: optional(text),
  rateClass: optional(text),
  rateType: optional(oneOf(['BOOKABLE', 'RECHECK'])),
  net: optional(decimal),
  sellingRate: optional(decimal),
  hotelMandatory: optional(flag),
  allotment: optional(integer),
  rateCommentsId: optional(text),
  rateComments: optional(text),
  paymentType: optional(oneOf(['AT_WEB', 'AT_HOTEL'])),
  packaging: optional(flag),
  boardCode: optional(text),
  boardName: optional(text),
  cancellationPolicies: optional(list(readCancellationPolicy)),
  taxes: optional(record({ taxes: optional(list(readTax)), allIncluded: optional(flag) })),
  rateBreakDown: optional(record({ rateDiscounts: optional(list(readCodedAmount)), rateSupplements: optional(list(readCodedAmount)) })),
  rooms: optional(integer),
  adults: optional(integer),
  children: optional(integer),
  childrenAges: optional(looseText),
  promotions: optional(list(readCodedAmount)),
  offers: optional(list(readCodedAmount)),
});

const readRoom = record<Room>({
  code: optional(text),
  name: optional(text),
  status: optional(oneOf(BOOKING_STATUSES)),
  id: optional(integer),
  paxes: optional(list(readPax)),
  rates: optional(list(readRate)),
});

const readHotel = record<Hotel>({
  code: integer,
  name: optional(text),
  checkIn: optional(text),
  checkOut: optional(text),
  categoryCode: optional(text),
  categoryName: optional(text),
  destinationCode: optional(text),
  destinationName: optional(text),
  zoneCode: optional(integer),
  zoneName: optional(text),
  latitude: optional(decimal),
  longitude: optional(decimal),
  rooms: optional(list(readRoom)),
  minRate: optional(decimal),
  maxRate: optional(decimal),
  totalNet: optional(decimal),
  totalSellingRate: optional(decimal),
  pendingAmount: optional(decimal),
  currency: optional(text),
  supplier: optional(record({ name: optional(text), vatNumber: optional(text) })),
  cancellationAmount: optional(decimal),
});

const readBooking = record<Booking>({
  reference: text,
  cancellationReference: optional(text),
  clientReference: optional(text),
  creationDate: optional(text),
  status: oneOf(BOOKING_STATUSES),
  modificationPolicies: optional(record({ cancellation: optional(flag), modification: optional(flag) })),
  creationUser: optional(text),
  holder: optional(record({ name: text, surname: text })),
  hotel: optional(readHotel),
  remark: optional(text),
  totalSellingRate: optional(decimal),
  totalNet: optional(decimal),
  pendingAmount: optional(decimal),
  currency: optional(text),
});

export const readAvailabilityRS: Reader<AvailabilityRS> = record<AvailabilityRS>({
  auditData: optional(readAuditData),
  hotels: record({ hotels: optional(list(readHotel)), checkIn: optional(text), checkOut: optional(text), total: optional(integer) }),
});

export const readCheckRateRS: Reader<CheckRateRS> = record<CheckRateRS>({ auditData: optional(readAuditData), hotel: readHotel });

export const readBookingRS: Reader<BookingRS> = record<BookingRS>({ auditData: optional(readAuditData), booking: readBooking });

export const readBookingListRS: Reader<BookingListRS> = record<BookingListRS>({
  auditData: optional(readAuditData),
  bookings: record({ bookings: optional(list(readBooking)), from: optional(integer), to: optional(integer), total: optional(integer) }),
});

const readContentText = record<ContentText>({ content: optional(text), languageCode: optional(text) });

const readContentHotel = record<ContentHotel>({
  code: integer,
  name: optional(readContentText),
  description: optional(readContentText),
  countryCode: optional(text),
  stateCode: optional(text),
  destinationCode: optional(text),
  zoneCode: optional(integer),
  coordinates: optional(record({ longitude: optional(decimal), latitude: optional(decimal) })),
  categoryCode: optional(text),
  categoryGroupCode: optional(text),
  chainCode: optional(text),
  accommodationTypeCode: optional(text),
  boardCodes: optional(list(text)),
  segmentCodes: optional(list(integer)),
  address: optional(readContentText),
  postalCode: optional(text),
  city: optional(readContentText),
  email: optional(text),
  giataCode: optional(integer),
  web: optional(text),
  lastUpdate: optional(text),
  phones: optional(list(record({ phoneNumber: optional(text), phoneType: optional(text) }))),
  rooms: optional(
    list(
      record({
        roomCode: optional(text),
        roomType: optional(text),
        characteristicCode: optional(text),
        minPax: optional(integer),
        maxPax: optional(integer),
        maxAdults: optional(integer),
        maxChildren: optional(integer),
      }),
    ),
  ),
  images: optional(
    list(record({ imageTypeCode: optional(text), path: optional(text), order: optional(integer), visualOrder: optional(integer), roomCode: optional(text) })),
  ),
  facilities: optional(list(record({ facilityCode: optional(integer), facilityGroupCode: optional(integer), order: optional(integer), indYesOrNo: optional(flag) }))),
});

export const readContentHotelsRS: Reader<ContentHotelsRS> = record<ContentHotelsRS>({
  auditData: optional(readAuditData),
  from: optional(integer),
  to: optional(integer),
  total: optional(integer),
  hotels: optional(list(readContentHotel)),
});
