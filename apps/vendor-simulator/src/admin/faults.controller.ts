import { Body, Controller, ForbiddenException, Get, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { FaultBoard, FaultSettingsError, parseFaultSettings } from '../faults/fault-knobs';
import { invalidRequest } from '../http/vendor-errors';
import { FAULT_BOARD } from '../vendors/vendor-tokens';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The simulator's own admin route, for tests and whoever runs it: the fault knobs of
 * each vendor, read and set at run time. Answered only to a client on this machine.
 */
@Controller('_simulator')
export class FaultsController {
  constructor(@Inject(FAULT_BOARD) private readonly faults: FaultBoard) {}

  @Get('faults')
  read(@Req() request: FastifyRequest): ReturnType<FaultBoard['snapshot']> {
    onlyLoopback(request);
    return this.faults.snapshot();
  }

  /** `{"atlas": {...knobs}}`: each vendor named gets exactly these knobs (none for those left out of them). */
  @Post('faults')
  @HttpCode(200)
  set(@Req() request: FastifyRequest, @Body() body: unknown): ReturnType<FaultBoard['snapshot']> {
    onlyLoopback(request);
    try {
      this.faults.set(parseFaultSettings(body));
    } catch (error) {
      if (error instanceof FaultSettingsError) throw invalidRequest(error.message);
      throw error;
    }
    return this.faults.snapshot();
  }
}

function onlyLoopback(request: FastifyRequest): void {
  if (!LOOPBACK.has(request.raw.socket.remoteAddress ?? '')) throw new ForbiddenException('the admin route answers only on loopback');
}
