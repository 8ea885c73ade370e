/**
 * The bot serves one workspace through one app. A request correctly signed with our signing
 * secret but naming another team, another enterprise or another app (api_app_id) is not ours to
 * serve, and an org-wide install is not supported: such a request reaches no listener. Which
 * workspace and app are ours is read once from Slack (auth.test with the bot token) at the first
 * request.
 */
import type { Middleware, AnyMiddlewareArgs } from '@slack/bolt';

export interface Identity {
  teamId: string | undefined;
  enterpriseId: string | undefined;
  appId: string | undefined;
}

type AuthTest = () => Promise<{ team_id?: string; enterprise_id?: string; app_id?: string }>;

export function onlyThisWorkspace(authTest: AuthTest, warn: (message: string) => void): Middleware<AnyMiddlewareArgs> {
  let ours: Promise<Identity> | undefined;
  return async ({ body, context, next }) => {
    ours ??= authTest()
      .then((r) => ({ teamId: r.team_id, enterpriseId: r.enterprise_id, appId: r.app_id }))
      .catch((err: unknown) => {
        ours = undefined;
        throw err;
      });
    const expected = await ours;
    const b = body as { api_app_id?: string; is_enterprise_install?: boolean | string };
    const claimed = { teamId: context.teamId, enterpriseId: context.enterpriseId, appId: b.api_app_id };
    const orgWide =
      context.isEnterpriseInstall === true || b.is_enterprise_install === true || b.is_enterprise_install === 'true';
    const foreign =
      orgWide ||
      (claimed.teamId !== undefined && expected.teamId !== undefined && claimed.teamId !== expected.teamId) ||
      (claimed.enterpriseId !== undefined && claimed.enterpriseId !== expected.enterpriseId) ||
      (claimed.appId !== undefined && expected.appId !== undefined && claimed.appId !== expected.appId);
    if (foreign) {
      warn(
        `refused a signed request for another workspace or app (team ${claimed.teamId ?? '-'}, enterprise ${claimed.enterpriseId ?? '-'}, app ${claimed.appId ?? '-'}${orgWide ? ', org-wide install' : ''})`,
      );
      return;
    }
    await next();
  };
}
