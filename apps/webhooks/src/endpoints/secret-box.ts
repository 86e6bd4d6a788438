import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts the endpoints' signing secrets at rest (AES-256-GCM, key derived from
 * WEBHOOK_SECRET_KEY): a copy of the database alone cannot forge a partner's
 * webhooks. The secrets must be readable to sign, so they cannot be hashed.
 * Stored form: `v1:<iv>:<tag>:<ciphertext>`, each base64.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = createHash('sha256').update(keyMaterial).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
  }

  /** Throws when the value was not sealed with this key (a wrong WEBHOOK_SECRET_KEY). */
  open(stored: string): string {
    const [version, iv, tag, sealed] = stored.split(':');
    if (version !== VERSION || !iv || !tag || sealed === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
  }
}
