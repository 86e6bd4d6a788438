import { nkeyAuthenticator, nkeys } from 'nats';
import { nkeyChallengeAnswer } from './nats-options';

describe('nkeyChallengeAnswer', () => {
  it("answers a server's nonce as nats.js's own authenticator does: the same public key and Ed25519 signature", () => {
    for (let i = 0; i < 3; i++) {
      const seed = new TextDecoder().decode(nkeys.createUser().getSeed());
      const nonce = `nonce-${i}-${Math.random().toString(36).slice(2)}`;
      const ours = nkeyChallengeAnswer(seed)(nonce) as { nkey: string; sig: string };
      const theirs = nkeyAuthenticator(new TextEncoder().encode(seed))(nonce) as { nkey: string; sig: string };
      expect(ours).toEqual(theirs);
      // What the server checks: the signature of the nonce under the public key.
      expect(nkeys.fromPublic(ours.nkey).verify(new TextEncoder().encode(nonce), Buffer.from(ours.sig, 'base64'))).toBe(true);
    }
  });

  it('signs nothing without a nonce, and refuses a seed that is not one', () => {
    const seed = new TextDecoder().decode(nkeys.createUser().getSeed());
    expect(nkeyChallengeAnswer(seed)()).toEqual({ nkey: nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey(), sig: '' });
    expect(() => nkeyChallengeAnswer('SUNOTASEED')).toThrow();
  });
});
