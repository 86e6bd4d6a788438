import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * This database's identity (table booking.installation, one row made by its
 * migration): it prefixes the idempotency keys sent to card processors.
 */
@Entity({ schema: 'booking', name: 'installation' })
export class InstallationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'boolean', select: false })
  singleton: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
