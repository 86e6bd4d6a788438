import { IsIdString } from '@hotel/contracts';

/** `{id}` path parameters of the backend API: the specification types them as strings. */
export class UserIdParams {
  @IsIdString()
  id: string;
}
