import { RequestMethod, Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { API_FAMILY, ApiFamily } from '../src/auth/api-family';
import { TestScenarioHeader } from '../src/booking/test-scenario';

/** One route of the gateway as its controller declares it, in OpenAPI's terms. */
export interface GatewayRoute {
  /** `GET /book/precancel/{booking_id}` */
  key: string;
  method: string;
  /** The OpenAPI path template (`{name}` for `:name`). */
  path: string;
  /** The API family (credential) of the route; none: public. */
  family?: ApiFamily;
  /** The status a success answers with unless the handler sets another (`@HttpCode`, else Nest's default). */
  status: number;
  params?: Type;
  query?: Type;
  body?: Type;
  /** Whether the handler reads `X-Test-Scenario` (a custom parameter decorator of that name). */
  testScenario: boolean;
}

interface RouteArgument {
  index: number;
  data?: unknown;
}

/** The metadata key prefix of a custom parameter decorator (Nest keys them by an id of its own per decorator). */
function customArgumentPrefix(decorator: ParameterDecorator): string {
  class Probe {
    handler(_value: unknown) {}
  }
  decorator(Probe.prototype, 'handler', 0);
  const [key] = Object.keys(Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handler') as object);
  return key.slice(0, key.lastIndexOf(':'));
}

function joinPath(...parts: (string | undefined)[]): string {
  const joined = parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter(Boolean)
    .join('/');
  return `/${joined}`;
}

/** `:name` segments as OpenAPI's `{name}`. */
export function toPathTemplate(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/**
 * Every route of the given controllers, read from the metadata Nest routes by
 * (path, method, `@HttpCode`, the `@Param`/`@Query`/`@Body` classes and the API
 * family): what the OpenAPI generator documents, so a route cannot be left out.
 */
export function gatewayRoutes(controllers: Type[]): GatewayRoute[] {
  const routes: GatewayRoute[] = [];
  const testScenario = customArgumentPrefix(TestScenarioHeader());
  for (const controller of controllers) {
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    const classFamily = Reflect.getMetadata(API_FAMILY, controller) as ApiFamily | undefined;
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (requestMethod === undefined) continue;
      const method = RequestMethod[requestMethod];
      const path = toPathTemplate(joinPath(prefix, Reflect.getMetadata(PATH_METADATA, handler) as string | undefined));
      const paramTypes = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as Type[];
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, RouteArgument>;
      const argumentOf = (kind: RouteParamtypes): Type | undefined => {
        const entry = Object.entries(args).find(([key, value]) => key === `${kind}:${value.index}`);
        return entry ? paramTypes[entry[1].index] : undefined;
      };
      const httpCode = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
      routes.push({
        key: `${method} ${path}`,
        method,
        path,
        family: (Reflect.getMetadata(API_FAMILY, handler) as ApiFamily | undefined) ?? classFamily,
        status: httpCode ?? (requestMethod === RequestMethod.POST ? 201 : 200),
        params: argumentOf(RouteParamtypes.PARAM),
        query: argumentOf(RouteParamtypes.QUERY),
        body: argumentOf(RouteParamtypes.BODY),
        testScenario: Object.keys(args).some((key) => key.startsWith(`${testScenario}:`)),
      });
    }
  }
  return routes;
}
