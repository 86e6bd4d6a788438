import { MessagePattern } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { Operation, ReplyOfOperation, RequestOfOperation } from '@hotel/contracts';

/** What a handler may return for an operation: its reply, later, or (answers in several messages) as a stream. */
type HandlerReply<Reply> = Reply | Promise<Reply> | Observable<Reply>;

const HANDLED_OPERATION = 'hotel:handled-operation';

/**
 * Marks a service controller's method as the handler of one operation (OPERATIONS):
 * it receives the operation's subject, its first parameter (the `@Payload()`) is
 * validated against the operation's request class whatever the parameter says, and
 * TypeScript refuses a method whose reply is not the operation's.
 */
export function Handles<O extends Operation<string, unknown, unknown>>(operation: O) {
  return <H extends (request: RequestOfOperation<O>, ...rest: never[]) => HandlerReply<ReplyOfOperation<O>>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    MessagePattern(operation.subject)(target, key, descriptor);
    // The services' validation pipe validates a parameter against its design type: the
    // request class declared for the operation, not whatever type the method names.
    const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', target, key) ?? [];
    Reflect.defineMetadata('design:paramtypes', [operation.request, ...paramTypes.slice(1)], target, key);
    Reflect.defineMetadata(HANDLED_OPERATION, operation, target, key);
  };
}

/** The operation a controller method handles (`@Handles`), if any. */
export function handledOperation(target: object, key: string | symbol): Operation | undefined {
  return Reflect.getMetadata(HANDLED_OPERATION, target, key);
}
