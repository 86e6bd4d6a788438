import { Controller, Get, HttpCode, HttpStatus, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { isDatabaseUp } from '@hotel/platform';

/** Probes: /health while the process answers, /health/ready while its database does too. */
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @HttpCode(HttpStatus.OK)
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ status: 'up' | 'down' }> {
    const up = await isDatabaseUp(this.dataSource);
    reply.code(up ? 200 : 503);
    return { status: up ? 'up' : 'down' };
  }
}
