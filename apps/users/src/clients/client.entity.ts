import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT_COLUMN, DECIMAL_COLUMN } from '@hotel/platform';
import { CredentialKind } from '@hotel/contracts';

/** A partner platform (table users.clients); money as exact decimal strings. */
@Entity({ schema: 'users', name: 'clients' })
export class ClientEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'credit_limit', type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  creditLimit: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  /** Percent added to every conversion of a vendor's price into the client's currency. */
  @Column({ name: 'fx_margin_percent', type: 'numeric', precision: 5, scale: 2, default: 0, transformer: DECIMAL_COLUMN })
  fxMarginPercent: string;

  /** The client's own requests per second (null: the gateway's default). */
  @Column({ name: 'rate_limit_rps', type: 'integer', nullable: true })
  rateLimitRps: number | null;

  @Column({ name: 'rate_limit_burst', type: 'integer', nullable: true })
  rateLimitBurst: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  /** Set once by delete-client: every credential of the client stops working. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

/** A stored credential: its SHA-256 only, when it was made, and when it was revoked. */
export abstract class StoredSecret {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'secret_hash', type: 'char', length: 64 })
  secretHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}

/** An API key, sandbox key or backend token of a client (table users.credentials), stored as its SHA-256 only. */
@Entity({ schema: 'users', name: 'credentials' })
export class CredentialEntity extends StoredSecret {
  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ type: 'text' })
  kind: CredentialKind;
}
