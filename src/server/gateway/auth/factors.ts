/** MFA: `POST /factors`, `/factors/{id}/challenge`, `/factors/{id}/verify`, `DELETE /factors/{id}`. */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { brand } from '../../../common/brand';
import { AuthError, validation } from '../../auth/errors';
import {
  issueRecoveryCodes,
  RECOVERY_CODES_NAME,
  recoveryCodeCounts,
  recoveryCodeFactor,
  removeFactor,
  useRecoveryCode,
} from '../../auth/factors';
import {
  assertPhoneChallengeAllowed,
  phoneChallengeHash,
  phoneCodeMatches,
  randomDigits,
} from '../../auth/phone-factors';
import { raiseSessionToAal2 } from '../../auth/sessions';
import { SmsSendError } from '../../auth/sms';
import {
  authenticationOptions,
  checkAssertion,
  checkRegistration,
  registrationOptions,
  relyingParty,
  type CeremonyState,
  type StoredCredential,
} from '../../auth/webauthn';
import type { Queryable } from '../../db/types';
import { checkTotp, newTotpSecret, qrCodeSvg, totpFor } from '../../auth/totp';
import { isUuid, type FactorRow } from '../../auth/users';
import { authJson, challengeFactorBody, enrollFactorBody, verifyFactorBody } from './bodies';
import { phoneFrom } from './phone';
import {
  clientInfo,
  optionalObject,
  optionalString,
  requireUser,
  type AuthContext,
  type AuthEnv,
  type AuthServices,
} from './http';

/** Challenges expire after 5 minutes, as in Supabase Auth. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const MAX_FACTORS = 10;
/** GoTrue's refusal of a channel it cannot text on. */
const INVALID_CHANNEL =
  "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.";
/** Wrong codes in a row before a factor refuses codes for ten minutes. */
export const MAX_FAILED_CODES = 10;

/** Recovery codes have their own verify call; challenging them as a TOTP factor is a mistake. */
function totpOnly(factor: FactorRow): FactorRow {
  if (factor.factor_type === 'recovery_code') {
    throw validation(
      'Recovery codes are not challenged: send one to POST /factors/recovery-codes/verify',
    );
  }
  return factor;
}

/**
 * GoTrue's rule for every factor type: a challenge is verified from the client address that
 * created it (`clientInfo`, so TRUST_PROXY decides what the address is), so a challenge seen
 * by someone else cannot be answered from elsewhere. Its wire text is GoTrue's.
 */
function refuseOtherAddress(c: AuthContext, challengeIp: string | null): void {
  if (challengeIp !== clientInfo(c).ip) {
    throw new AuthError(
      422,
      'mfa_ip_address_mismatch',
      'Challenge and verify IP addresses mismatch.',
    );
  }
}

/**
 * supabase-js's `mfa.recoveryCodes` API (experimental in 2.119): status, generate, verify,
 * regenerate and unenroll. Registered before `/factors/:id` so "recovery-codes" is never read
 * as a factor id.
 */
function recoveryCodeRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  const base = '/factors/recovery-codes';

  async function existingSet(userId: string): Promise<FactorRow> {
    const factor = await recoveryCodeFactor(services.db, userId);
    if (!factor) {
      throw new AuthError(404, 'mfa_factor_not_found', 'No recovery codes have been generated');
    }
    return factor;
  }

  function requireAal2(c: AuthContext, action: string) {
    if (c.get('session').aal !== 'aal2') {
      throw new AuthError(403, 'insufficient_aal', `AAL2 required to ${action} recovery codes`);
    }
  }

  async function issue(c: AuthContext, existing: FactorRow | undefined, name: string) {
    const { factor, codes } = await services.db.transaction((tx) =>
      issueRecoveryCodes(tx, c.get('user').row.id, existing, name),
    );
    c.header('Cache-Control', 'no-store');
    return c.json({
      id: factor.id,
      type: 'recovery_code' as const,
      friendly_name: factor.friendly_name ?? '',
      total: codes.length,
      codes,
    });
  }

  app.get(base, async (c) => {
    const factor = await existingSet(c.get('user').row.id);
    const counts = await recoveryCodeCounts(services.db, factor.id);
    return c.json({ id: factor.id, type: 'recovery_code', ...counts });
  });

  app.post(base, async (c) => {
    const body = await authJson(c, enrollFactorBody);
    const user = c.get('user');
    requireAal2(c, 'generate');
    const others = user.factors.filter(
      (f) => f.status === 'verified' && f.factor_type !== 'recovery_code',
    );
    if (others.length === 0) {
      throw new AuthError(
        422,
        'mfa_recovery_codes_sole_factor',
        'Recovery codes cannot be the only factor: verify an authenticator app, security key or phone first',
      );
    }
    if (user.factors.some((f) => f.factor_type === 'recovery_code')) {
      throw new AuthError(
        422,
        'mfa_verified_factor_exists',
        'Recovery codes already exist: regenerate them to replace the set',
      );
    }
    const name = optionalString(body, 'friendly_name')?.trim().slice(0, 100) || RECOVERY_CODES_NAME;
    if (user.factors.some((f) => f.friendly_name === name)) {
      throw new AuthError(
        422,
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${name}" for this user already exists`,
      );
    }
    return issue(c, undefined, name);
  });

  app.post(`${base}/regenerate`, async (c) => {
    requireAal2(c, 'regenerate');
    const factor = await existingSet(c.get('user').row.id);
    return issue(c, factor, factor.friendly_name ?? RECOVERY_CODES_NAME);
  });

  app.post(`${base}/verify`, async (c) => {
    services.limits.hit('mfa_verify', clientInfo(c).ip);
    const user = c.get('user');
    const session = c.get('session');
    const body = await authJson(c, verifyFactorBody);
    const code = optionalString(body, 'code');
    if (!code) throw validation('code is required');
    const factor = await existingSet(user.row.id);
    const result = await services.db.transaction(async (tx) => {
      const used = await useRecoveryCode(tx, factor, code);
      if (!used.ok) return { error: used.error };
      // A recovery code is used when the authenticator is lost: sessions that never passed
      // the second step (perhaps the thief's, with the password) end now.
      await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2 and aal = 'aal1'`, [
        user.row.id,
        session.id,
      ]);
      return {
        session: await raiseSessionToAal2(services, tx, session, factor.id, 'mfa/recovery_code'),
      };
    });
    if ('error' in result && result.error) throw result.error;
    return c.json(result.session);
  });

  app.delete(base, async (c) => {
    requireAal2(c, 'remove');
    const user = c.get('user');
    const factor = await existingSet(user.row.id);
    await services.db.transaction((tx) => removeFactor(tx, user.row.id, factor.id));
    return c.json({ id: factor.id });
  });

  return app;
}

/** GoTrue's requireNotAnonymous: a second factor needs a permanent account first. */
export const refuseAnonymous = createMiddleware<AuthEnv>(async (c, next) => {
  if (c.get('user').row.is_anonymous) {
    throw new AuthError(
      403,
      'no_authorization',
      'Anonymous user not allowed to perform these actions',
    );
  }
  await next();
});

export function factorRoutes(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  app.use('/factors/*', requireUser(services), refuseAnonymous);
  app.use('/factors', requireUser(services), refuseAnonymous);

  async function ownFactor(userId: string, id: string): Promise<FactorRow> {
    if (!isUuid(id)) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    const { rows } = await services.db.query<FactorRow & Record<string, unknown>>(
      `select * from auth.mfa_factors where id = $1 and user_id = $2 and factor_type <> 'passkey'`,
      [id, userId],
    );
    if (!rows[0]) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    return rows[0];
  }

  app.route('/', recoveryCodeRoutes(services));

  /** GoTrue's validateFactors: name clash, factor count, and AAL2 once a factor is verified. */
  function assertCanEnroll(
    c: AuthContext,
    friendlyName: string,
    factors: FactorRow[] = c.get('user').factors,
  ) {
    const verified = factors.filter((f) => f.status === 'verified');
    if (verified.length > 0 && c.get('session').aal !== 'aal2') {
      throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    if (factors.length >= MAX_FACTORS) {
      throw new AuthError(
        422,
        'too_many_enrolled_mfa_factors',
        `At most ${MAX_FACTORS} factors can be enrolled`,
      );
    }
    if (friendlyName && factors.some((f) => f.friendly_name === friendlyName)) {
      throw new AuthError(
        422,
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      );
    }
  }

  /** Abandoned enrolments are replaced rather than piling up. */
  async function dropStaleEnrolments(tx: Queryable, userId: string) {
    await tx.query(
      `delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and created_at < now() - interval '1 hour'`,
      [userId],
    );
  }

  async function enrollPhone(c: AuthContext, body: Record<string, unknown>) {
    if (!services.config.auth.mfaPhone.enroll) {
      throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    }
    const user = c.get('user');
    const given = optionalString(body, 'phone');
    if (!given) throw validation('Phone number required to enroll Phone factor');
    const phone = phoneFrom(given);
    const samePhone = user.factors.filter((f) => f.factor_type === 'phone' && f.phone === phone);
    if (samePhone.some((f) => f.status === 'verified')) {
      throw new AuthError(
        422,
        'mfa_verified_factor_exists',
        'A verified phone factor already exists, unenroll the existing factor to continue',
      );
    }
    const friendlyName = optionalString(body, 'friendly_name')?.trim().slice(0, 100) ?? '';
    // An unverified factor for the same number is replaced, as GoTrue does.
    assertCanEnroll(
      c,
      friendlyName,
      user.factors.filter((f) => !samePhone.includes(f)),
    );
    const { rows } = await services.db.transaction(async (tx) => {
      await dropStaleEnrolments(tx, user.row.id);
      await tx.query(
        `delete from auth.mfa_factors where user_id = $1 and factor_type = 'phone' and phone = $2 and status = 'unverified'`,
        [user.row.id, phone],
      );
      return tx.query<{ id: string }>(
        `insert into auth.mfa_factors (user_id, friendly_name, factor_type, phone) values ($1, $2, 'phone', $3) returning id`,
        [user.row.id, friendlyName || null, phone],
      );
    });
    return c.json({ id: rows[0]!.id, type: 'phone', friendly_name: friendlyName, phone: given });
  }

  async function enrollTotp(c: AuthContext, body: Record<string, unknown>) {
    const user = c.get('user');
    const friendlyName = optionalString(body, 'friendly_name')?.trim().slice(0, 100) ?? '';
    const issuer = optionalString(body, 'issuer')?.trim().slice(0, 100) || brand.product;
    assertCanEnroll(c, friendlyName);
    const secret = newTotpSecret();
    const uri = totpFor(secret, issuer, user.row.email ?? user.row.id).toString();
    const qr = await qrCodeSvg(uri);
    const { rows } = await services.db.transaction(async (tx) => {
      await dropStaleEnrolments(tx, user.row.id);
      return tx.query<{ id: string }>(
        `insert into auth.mfa_factors (user_id, friendly_name, factor_type, secret) values ($1, $2, 'totp', $3) returning id`,
        [user.row.id, friendlyName || null, secret],
      );
    });
    return c.json({
      id: rows[0]!.id,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: qr, secret, uri },
    });
  }

  async function enrollWebauthn(c: AuthContext, body: Record<string, unknown>) {
    if (!services.config.auth.webauthn.mfaEnroll) {
      throw new AuthError(
        422,
        'mfa_webauthn_enroll_not_enabled',
        'MFA enroll is disabled for WebAuthn',
      );
    }
    const user = c.get('user');
    const friendlyName = optionalString(body, 'friendly_name')?.trim().slice(0, 100) ?? '';
    assertCanEnroll(c, friendlyName);
    const { rows } = await services.db.transaction(async (tx) => {
      await dropStaleEnrolments(tx, user.row.id);
      return tx.query<{ id: string }>(
        `insert into auth.mfa_factors (user_id, friendly_name, factor_type) values ($1, $2, 'webauthn') returning id`,
        [user.row.id, friendlyName || null],
      );
    });
    return c.json({ id: rows[0]!.id, type: 'webauthn', friendly_name: friendlyName });
  }

  function requireWebauthnVerify() {
    if (!services.config.auth.webauthn.mfaVerify) {
      throw new AuthError(
        422,
        'mfa_webauthn_verify_not_enabled',
        'MFA verification is disabled for WebAuthn',
      );
    }
  }

  /**
   * An unverified factor is challenged to register a credential ("create"), a verified one to
   * sign with it ("request"). The relying party is the config's, whatever the client claims.
   */
  async function challengeWebauthn(c: AuthContext, factor: FactorRow) {
    requireWebauthnVerify();
    const user = c.get('user');
    const rp = relyingParty(services.config, c.req.url);
    const type = factor.status === 'verified' ? 'request' : 'create';
    const others = user.factors
      .filter((f) => f.factor_type === 'webauthn' && f.web_authn_credential)
      .map((f) => f.web_authn_credential!);
    const options =
      type === 'create'
        ? await registrationOptions(
            rp,
            { id: user.row.id, name: user.row.email || user.row.phone || user.row.id },
            others,
            'discouraged',
          )
        : await authenticationOptions(rp, [factor.web_authn_credential!]);
    const state: CeremonyState = { type, challenge: options.challenge };
    const { rows } = await services.db.query<{ id: string; created_at: Date }>(
      `insert into auth.mfa_challenges (factor_id, ip, web_authn_session_data) values ($1, $2, $3)
       returning id, created_at`,
      [factor.id, clientInfo(c).ip, JSON.stringify(state)],
    );
    const challenge = rows[0]!;
    return c.json({
      id: challenge.id,
      type: 'webauthn',
      expires_at: expiresAt(challenge.created_at),
      webauthn: { type, credential_options: { publicKey: options } },
    });
  }

  async function verifyWebauthn(c: AuthContext, factor: FactorRow, body: Record<string, unknown>) {
    requireWebauthnVerify();
    const user = c.get('user');
    const session = c.get('session');
    const challengeId = optionalString(body, 'challenge_id');
    if (!challengeId || !isUuid(challengeId)) throw validation('challenge_id is required');
    const params = optionalObject(body, 'webauthn');
    if (!params) throw validation('WebAuthn config required');
    if (params.type !== 'create' && params.type !== 'request') {
      throw validation('WebAuthn type must be create or request');
    }
    if (params.credential_response === undefined || params.credential_response === null) {
      throw validation('credential_response required');
    }
    const { rows } = await services.db.query<{
      id: string;
      created_at: Date;
      verified_at: Date | null;
      ip: string | null;
      web_authn_session_data: CeremonyState | null;
    }>(
      `select id, created_at, verified_at, ip, web_authn_session_data from auth.mfa_challenges
       where id = $1 and factor_id = $2`,
      [challengeId, factor.id],
    );
    const challenge = rows[0];
    const state = challenge?.web_authn_session_data;
    if (!challenge || challenge.verified_at || !state) {
      throw new AuthError(404, 'mfa_factor_not_found', 'MFA challenge not found or already used');
    }
    refuseOtherAddress(c, challenge.ip);
    if (Date.now() - new Date(challenge.created_at).getTime() > CHALLENGE_TTL_MS) {
      await services.db.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
      throw new AuthError(
        422,
        'mfa_challenge_expired',
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    if (state.type !== params.type) {
      throw validation(`This challenge expects a WebAuthn ${state.type} response`);
    }
    const rp = relyingParty(services.config, c.req.url);
    let credential: StoredCredential;
    let aaguid: string | null = null;
    if (state.type === 'create') {
      const registered = await checkRegistration(
        rp,
        state,
        params.credential_response,
        'mfa_verification_failed',
      );
      credential = registered.credential;
      aaguid = registered.aaguid;
    } else {
      const stored = factor.web_authn_credential!;
      const counter = await checkAssertion(
        rp,
        state,
        stored,
        params.credential_response,
        'mfa_verification_failed',
      );
      credential = { ...stored, counter };
    }
    const result = await services.db.transaction(async (tx) => {
      const used = await tx.query(
        `update auth.mfa_challenges set verified_at = now() where id = $1 and verified_at is null returning id`,
        [challenge.id],
      );
      if (used.rows.length === 0) {
        return {
          error: new AuthError(
            404,
            'mfa_factor_not_found',
            'MFA challenge not found or already used',
          ),
        };
      }
      if (state.type === 'create') {
        const { rows: taken } = await tx.query(
          `select 1 from auth.mfa_factors where web_authn_credential ->> 'id' = $1`,
          [credential.id],
        );
        if (taken.length > 0) {
          return {
            error: new AuthError(
              422,
              'webauthn_credential_exists',
              'This credential is already registered',
            ),
          };
        }
        await tx.query(
          `update auth.mfa_factors set status = 'verified', web_authn_credential = $2,
             web_authn_aaguid = $3, updated_at = now() where id = $1`,
          [factor.id, JSON.stringify(credential), aaguid],
        );
        await tx.query(
          `delete from auth.mfa_factors where user_id = $1 and factor_type = 'webauthn' and status = 'unverified'`,
          [user.row.id],
        );
      } else {
        // The counter moves only forward: a concurrent use of the same signature loses here.
        const moved = await tx.query(
          `update auth.mfa_factors set web_authn_credential = $2, updated_at = now()
           where id = $1 and (web_authn_credential ->> 'counter')::bigint = $3 returning id`,
          [factor.id, JSON.stringify(credential), factor.web_authn_credential!.counter],
        );
        if (moved.rows.length === 0) {
          return {
            error: new AuthError(
              422,
              'mfa_verification_failed',
              'Credential verification failed: the authenticator was used concurrently',
            ),
          };
        }
      }
      return {
        session: await raiseSessionToAal2(services, tx, session, factor.id, 'mfa/webauthn'),
      };
    });
    if ('error' in result && result.error) throw result.error;
    return c.json(result.session);
  }

  app.post('/factors', async (c) => {
    const body = await authJson(c, enrollFactorBody);
    const type = optionalString(body, 'factor_type');
    if (type === 'phone') return enrollPhone(c, body);
    if (type === 'totp') return enrollTotp(c, body);
    if (type === 'webauthn') return enrollWebauthn(c, body);
    throw validation('factor_type needs to be totp, phone, or webauthn');
  });

  function expiresAt(createdAt: Date): number {
    return Math.floor((new Date(createdAt).getTime() + CHALLENGE_TTL_MS) / 1000);
  }

  function requirePhoneVerify() {
    if (!services.config.auth.mfaPhone.verify) {
      throw new AuthError(
        422,
        'mfa_phone_verify_not_enabled',
        'MFA verification is disabled for Phone',
      );
    }
  }

  async function challengePhone(c: AuthContext, factor: FactorRow) {
    requirePhoneVerify();
    const body = await authJson(c, challengeFactorBody);
    const channel = optionalString(body, 'channel') ?? 'sms';
    if (channel !== 'sms') throw validation(INVALID_CHANNEL);
    const { ip } = clientInfo(c);
    const settings = services.config.auth.mfaPhone;
    await assertPhoneChallengeAllowed(services.db, factor.id, settings.maxFrequencyMs);
    services.limits.hit('sms', ip);
    const code = randomDigits(settings.otpLength);
    const challenge = await services.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string; created_at: Date }>(
        `insert into auth.mfa_challenges (factor_id, ip) values ($1, $2) returning id, created_at`,
        [factor.id, ip],
      );
      const row = rows[0]!;
      await tx.query('update auth.mfa_challenges set otp_code_hash = $2 where id = $1', [
        row.id,
        phoneChallengeHash(row.id, code),
      ]);
      return row;
    });
    try {
      await services.sms.send(factor.phone ?? '', `Your ${brand.product} code is ${code}`);
    } catch (error) {
      await services.db.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
      if (!(error instanceof SmsSendError)) throw error;
      services.gateway.log.error('MFA SMS not sent', { error: error.message });
      throw new AuthError(
        422,
        'sms_send_failed',
        `Error sending MFA OTP to provider: ${error.message}`,
      );
    }
    return c.json({ id: challenge.id, type: 'phone', expires_at: expiresAt(challenge.created_at) });
  }

  app.post('/factors/:id/challenge', async (c) => {
    const factor = totpOnly(await ownFactor(c.get('user').row.id, c.req.param('id')));
    if (factor.factor_type === 'phone') return challengePhone(c, factor);
    if (factor.factor_type === 'webauthn') return challengeWebauthn(c, factor);
    const { rows } = await services.db.query<{ id: string; created_at: Date }>(
      'insert into auth.mfa_challenges (factor_id, ip) values ($1, $2) returning id, created_at',
      [factor.id, clientInfo(c).ip],
    );
    const challenge = rows[0]!;
    return c.json({
      id: challenge.id,
      type: factor.factor_type,
      expires_at: expiresAt(challenge.created_at),
    });
  });

  app.post('/factors/:id/verify', async (c) => {
    services.limits.hit('mfa_verify', clientInfo(c).ip);
    const user = c.get('user');
    const session = c.get('session');
    const factor = totpOnly(await ownFactor(user.row.id, c.req.param('id')));
    if (factor.factor_type === 'phone') requirePhoneVerify();
    const body = await authJson(c, verifyFactorBody);
    if (factor.factor_type === 'webauthn') return verifyWebauthn(c, factor, body);
    const challengeId = optionalString(body, 'challenge_id');
    const code = optionalString(body, 'code');
    if (!challengeId || !isUuid(challengeId)) throw validation('challenge_id is required');
    if (!code) throw validation('code is required');

    const result = await services.db.transaction(async (tx) => {
      const { rows } = await tx.query<{
        id: string;
        created_at: Date;
        verified_at: Date | null;
        ip: string | null;
        otp_code_hash: string | null;
      }>(
        'select id, created_at, verified_at, ip, otp_code_hash from auth.mfa_challenges where id = $1 and factor_id = $2',
        [challengeId, factor.id],
      );
      const challenge = rows[0];
      if (!challenge || challenge.verified_at) {
        return {
          error: new AuthError(
            404,
            'mfa_factor_not_found',
            'MFA challenge not found or already used',
          ),
        };
      }
      refuseOtherAddress(c, challenge.ip);
      if (Date.now() - new Date(challenge.created_at).getTime() > CHALLENGE_TTL_MS) {
        await tx.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
        return {
          error: new AuthError(
            422,
            'mfa_challenge_expired',
            `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
          ),
        };
      }
      const { rows: lock } = await tx.query<{ locked_until: Date | null }>(
        'select locked_until from auth.mfa_factors where id = $1',
        [factor.id],
      );
      const lockedUntil = lock[0]?.locked_until ? new Date(lock[0].locked_until).getTime() : 0;
      if (lockedUntil > Date.now()) {
        const minutes = Math.ceil((lockedUntil - Date.now()) / 60_000);
        return {
          error: new AuthError(
            429,
            'over_request_rate_limit',
            `Too many wrong codes for this authenticator. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          ),
        };
      }
      const isPhone = factor.factor_type === 'phone';
      const step = isPhone
        ? phoneCodeMatches(challenge.id, challenge.otp_code_hash ?? '', code)
          ? (factor.last_used_step ?? null)
          : undefined
        : checkTotp(factor.secret ?? '', code, factor.last_used_step);
      if (step === undefined) {
        // Counted per factor, so guessing from many addresses gains nothing.
        await tx.query(
          `update auth.mfa_factors set
             locked_until = case when failed_attempts + 1 >= $2 then now() + interval '10 minutes' end,
             failed_attempts = case when failed_attempts + 1 >= $2 then 0 else failed_attempts + 1 end
           where id = $1`,
          [factor.id, MAX_FAILED_CODES],
        );
        return {
          error: new AuthError(
            422,
            'mfa_verification_failed',
            isPhone ? 'Invalid MFA Phone code entered' : 'Invalid TOTP code entered',
          ),
        };
      }
      await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1', [
        challenge.id,
      ]);
      await tx.query(
        `update auth.mfa_factors set status = 'verified', last_used_step = $2, failed_attempts = 0,
           updated_at = now() where id = $1`,
        [factor.id, step],
      );
      if (isPhone) {
        // As GoTrue: a verified phone factor ends the other phone enrolments left unverified.
        await tx.query(
          `delete from auth.mfa_factors where user_id = $1 and factor_type = 'phone' and status = 'unverified'`,
          [user.row.id],
        );
      }
      return {
        session: await raiseSessionToAal2(
          services,
          tx,
          session,
          factor.id,
          isPhone ? 'mfa/phone' : 'totp',
        ),
      };
    });
    if ('error' in result && result.error) throw result.error;
    return c.json(result.session);
  });

  app.delete('/factors/:id', async (c) => {
    const user = c.get('user');
    const session = c.get('session');
    const factor = await ownFactor(user.row.id, c.req.param('id'));
    if (factor.status === 'verified' && session.aal !== 'aal2') {
      // GoTrue's status for this one is 422 (`UnenrollFactor` in its `mfa.go`).
      throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await services.db.transaction((tx) => removeFactor(tx, user.row.id, factor.id));
    return c.json({ id: factor.id });
  });

  return app;
}
