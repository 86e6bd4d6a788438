import { OperationKey, Operations, ReplyOfOperation, RequestOfOperation } from './operations';

interface Contract<Request, Reply> {
  request: Request;
  reply: Reply;
}

/**
 * Subject -> request and reply types, derived from OPERATIONS. `ServiceClient.send`
 * takes its types from here, so a wrong payload for a subject fails to compile.
 */
export type ContractMap = {
  [K in OperationKey as Operations[K]['subject']]: Contract<RequestOfOperation<Operations[K]>, ReplyOfOperation<Operations[K]>>;
};

export type RequestOf<S extends keyof ContractMap> = ContractMap[S]['request'];
export type ReplyOf<S extends keyof ContractMap> = ContractMap[S]['reply'];
