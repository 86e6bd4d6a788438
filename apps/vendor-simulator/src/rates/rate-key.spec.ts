import { decodeRateKey, encodeRateKey, type RateTerms } from './rate-key';

const terms: RateTerms = {
  vendor: 'borealis',
  hotelCode: 302915401,
  roomId: 4,
  board: 'HB',
  refundable: false,
  memberRate: true,
  checkIn: '2027-06-15',
  checkOut: '2027-06-18',
  occupancy: { rooms: 2, adults: 2, children: 2, childAges: [4, 11] },
  epoch: 2_021_745,
  checked: false,
};

describe('rate keys', () => {
  it("are written in the vendor's manner and read back whole", () => {
    const key = encodeRateKey(terms, 'borealis-secret');
    expect(key).toMatch(/^20270615\|20270618\|W\|borealis\|302915401\|DBL\.SU-KG\|NRF\|HB\|M\|2~2~2\|4~11\|2021745\|A@[\w-]{22}$/);
    expect(decodeRateKey(key, 'borealis', 'borealis-secret')).toEqual(terms);
    const checked = encodeRateKey({ ...terms, checked: true, occupancy: { rooms: 1, adults: 1, children: 0, childAges: [] } }, 'borealis-secret');
    expect(decodeRateKey(checked, 'borealis', 'borealis-secret')).toEqual({ ...terms, checked: true, occupancy: { rooms: 1, adults: 1, children: 0, childAges: [] } });
  });

  it("refuse an altered key, another vendor's, another secret's, and what is not a key", () => {
    const key = encodeRateKey(terms, 'borealis-secret');
    expect(decodeRateKey(key.replace('|NRF|', '|NOR|'), 'borealis', 'borealis-secret')).toBeNull();
    expect(decodeRateKey(key.replace('|2021745|', '|2021744|'), 'borealis', 'borealis-secret')).toBeNull();
    expect(decodeRateKey(key, 'atlas', 'borealis-secret')).toBeNull();
    expect(decodeRateKey(key, 'borealis', 'another-secret')).toBeNull();
    for (const junk of ['', '@', 'a|b|c@x', key + key, 'x'.repeat(1000)]) expect(decodeRateKey(junk, 'borealis', 'borealis-secret')).toBeNull();
  });
});
