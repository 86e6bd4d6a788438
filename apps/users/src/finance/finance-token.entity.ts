import { Column, Entity } from 'typeorm';
import { StoredSecret } from '../clients/client.entity';

/** A finance operator's credential (table users.finance_tokens), stored as its SHA-256 only; of no client. */
@Entity({ schema: 'users', name: 'finance_tokens' })
export class FinanceTokenEntity extends StoredSecret {
  @Column({ type: 'text' })
  name: string;
}
