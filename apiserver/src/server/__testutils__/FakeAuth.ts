import type { IncomingMessage } from 'node:http';
import type { AuthorizationDecision, Authenticator, Authorizer, RequestInfo, UserInfo } from '../../auth/types';
import { unauthorized } from '../StatusError';

/** Users by bearer token; `Bearer broken` throws a plain error, unknown tokens a 401. */
export class FakeAuthenticator implements Authenticator {
  calls = 0;
  constructor(
    readonly users: Record<string, UserInfo> = {
      admin: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      alice: { username: 'alice', groups: ['dev', 'system:authenticated'] },
    },
  ) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo> {
    this.calls++;
    const header = req.headers.authorization;
    if (!header) return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    const token = header.replace(/^Bearer /, '');
    if (token === 'broken') throw new Error('token review unreachable');
    const user = this.users[token];
    if (!user) throw unauthorized();
    return user;
  }
}

/** Records every call; decides with `decide` (default: allow everyone but anonymous). */
export class FakeAuthorizer implements Authorizer {
  readonly calls: Array<{ user: UserInfo; info: RequestInfo }> = [];
  decide: (user: UserInfo, info: RequestInfo) => AuthorizationDecision | Promise<AuthorizationDecision> = user => ({
    allowed: user.username !== 'system:anonymous',
  });

  async authorize(user: UserInfo, info: RequestInfo): Promise<AuthorizationDecision> {
    this.calls.push({ user, info });
    return this.decide(user, info);
  }
}
