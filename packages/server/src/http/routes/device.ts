import type { DeviceLogin } from '../../auth/device-login.ts';
import type { RouteHandlers } from '../route-handler.ts';

/** POST /v1/device/code and /v1/device/token (docs/api-decisions.md section 6). */
export function deviceHandlers(
  deviceLogin: DeviceLogin,
): Pick<RouteHandlers, 'createDeviceCode' | 'pollDeviceToken'> {
  return {
    createDeviceCode: async ({ body, request }) => {
      const userAgent = request.headers['user-agent'];
      return deviceLogin.create({
        scopes: body.scopes ?? [],
        clientName: body.client_name,
        clientIp: request.ip,
        userAgent: typeof userAgent === 'string' ? userAgent : undefined,
      });
    },
    pollDeviceToken: async ({ body }) => deviceLogin.poll(body.poll_token),
  };
}
