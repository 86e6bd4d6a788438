import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { FinanceTokenEntity } from './finance-token.entity';

/** The finance team's operator credentials. */
@Injectable()
export class FinanceTokensRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get tokens() {
    return this.dataSource.getRepository(FinanceTokenEntity);
  }

  /** A new token's id. */
  async create(name: string, secretHash: string): Promise<number> {
    const inserted = await this.tokens.insert({ name, secretHash });
    return inserted.identifiers[0].id as number;
  }

  /** Revokes a token (once: a repeat keeps the first time); null for an unknown one. */
  async revoke(id: number): Promise<Date | null> {
    await this.tokens.createQueryBuilder().update().set({ revokedAt: () => 'coalesce(revoked_at, now())' }).where('id = :id', { id }).execute();
    const token = await this.tokens.findOne({ select: { id: true, revokedAt: true }, where: { id } });
    return token?.revokedAt ?? null;
  }

  async isActive(secretHash: string): Promise<boolean> {
    return this.tokens.exists({ where: { secretHash, revokedAt: IsNull() } });
  }
}
