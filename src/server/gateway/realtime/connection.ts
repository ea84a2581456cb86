/**
 * One realtime WebSocket: the Phoenix channel protocol realtime-js speaks
 * (docs/reference/realtime-wire.md). Frames are handled one at a time in arrival order (a
 * join that waits for the database holds the frames behind it), so what a client sends is
 * processed, and what it receives is sent, in order.
 */
import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import type { JwtClaims } from '../../db/types';
import { TokenError, type TokenVerifier } from '../../keys/verify';
import type { Logger } from '../../logger';
import type { ChannelAuthorizer, ReadPolicies } from '../../realtime/authorization';
import {
  BindingError,
  readBindings,
  type ChangeBinding,
  type ChangeData,
  type ChangeFeed,
  type ChangeSubscriber,
} from '../../realtime/changes';
import type { BroadcastBody, FrameCache, RealtimeHub, Subscriber } from '../../realtime/hub';
import type { PresenceDiff } from '../../realtime/presence';
import type { Config } from '../../config';
import type { RequestMetrics } from '../ops/metrics';
import type { RateLimiter } from '../ops/rate-limit';
import {
  decodeBinary,
  decodeText,
  encodeBroadcast,
  encodeReply,
  encodeText,
  FrameError,
  fitsBinaryHeader,
  type ClientBroadcast,
  type PhoenixMessage,
  type Vsn,
} from './serializer';

export interface RealtimeLimiters {
  connectionJoins: RateLimiter;
  keyJoins: RateLimiter;
  connectionEvents: RateLimiter;
  keyEvents: RateLimiter;
}

export interface ConnectionDeps {
  hub: RealtimeHub;
  changes: ChangeFeed;
  verifier: TokenVerifier;
  authorizer: ChannelAuthorizer;
  limits: Config['realtime'];
  limiters: RealtimeLimiters;
  metrics: RequestMetrics;
  log: Logger;
}

/** Past this much unsent data the client is not reading: it is disconnected, not buffered. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Tokens are checked again at least this often (a signed-out session is refused). */
const RECHECK_TOKEN_MS = 5 * 60_000;
const TOPIC_PREFIX = 'realtime:';
/**
 * A presence meta travels to the other gateway processes in one NOTIFY (at most 8000 bytes
 * with its envelope, decision 0303), so it is held to this on every database alike.
 */
const MAX_PRESENCE_BYTES = 6000;

/** Supabase Realtime's reasons, `Code: message`, which realtime-js shows as the error. */
function reason(code: string, message: string) {
  return { reason: `${code}: ${message}` };
}

function tokenRefusal(error: TokenError) {
  if (error.message === 'JWT expired') return reason('InvalidJWTToken', 'Token has expired');
  if (error.message.includes('signature') || error.message.includes('signing key'))
    return reason('JwtSignatureError', 'Failed to validate JWT signature');
  if (error.message.includes('malformed'))
    return reason('MalformedJWT', 'The token provided is not a valid JWT');
  return reason('InvalidJWTToken', error.message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function byteLength(body: BroadcastBody): number {
  return body.kind === 'json' ? Buffer.byteLength(body.json) : body.bytes.length;
}

interface JoinConfig {
  selfBroadcast: boolean;
  ackBroadcast: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  isPrivate: boolean;
  postgresChanges: unknown[];
}

function readJoinConfig(payload: Record<string, unknown>): JoinConfig {
  const config = isRecord(payload.config) ? payload.config : {};
  const broadcast = isRecord(config.broadcast) ? config.broadcast : {};
  const presence = isRecord(config.presence) ? config.presence : {};
  const key = typeof presence.key === 'string' && presence.key !== '' ? presence.key : randomUUID();
  return {
    selfBroadcast: broadcast.self === true,
    ackBroadcast: broadcast.ack === true,
    presenceKey: key,
    presenceEnabled: presence.enabled === true,
    isPrivate: config.private === true,
    postgresChanges: Array.isArray(config.postgres_changes) ? config.postgres_changes : [],
  };
}

/** A joined channel: the hub's subscriber for this connection and topic. */
class Channel implements Subscriber, ChangeSubscriber {
  readonly id = randomUUID();
  changeBindings: ChangeBinding[] = [];
  canReadBroadcast = true;
  canReadPresence = true;
  presenceEnabled: boolean;
  readonly selfBroadcast: boolean;
  readonly ackBroadcast: boolean;
  readonly presenceKey: string;
  readonly isPrivate: boolean;
  /** Write permissions on a private channel, asked once per extension. */
  readonly canWrite = new Map<'broadcast' | 'presence', Promise<boolean>>();
  tokenTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: RealtimeConnection,
    readonly topic: string,
    readonly joinRef: string | null,
    public token: string,
    public claims: JwtClaims,
    config: JoinConfig,
  ) {
    this.selfBroadcast = config.selfBroadcast;
    this.ackBroadcast = config.ackBroadcast;
    this.presenceKey = config.presenceKey;
    this.presenceEnabled = config.presenceEnabled;
    this.isPrivate = config.isPrivate;
  }

  get name(): string {
    return this.topic.slice(TOPIC_PREFIX.length);
  }

  /** Rate limits and the private channel's read policies are per caller: user, or address. */
  get callerKey(): string {
    return typeof this.claims.sub === 'string'
      ? `user:${this.claims.sub}`
      : `address:${this.connection.clientAddress}`;
  }

  applyReadPolicies(policies: ReadPolicies) {
    this.canReadBroadcast = policies.broadcast;
    this.canReadPresence = policies.presence;
  }

  deliverBroadcast(event: string, body: BroadcastBody, frames: FrameCache): void {
    const vsn = this.connection.vsn;
    let frame = frames.get(vsn);
    if (!frames.has(vsn)) {
      frame = encodeBroadcast(vsn, this.topic, event, body);
      frames.set(vsn, frame);
    }
    if (frame !== undefined) this.connection.sendEvent(frame);
  }

  deliverChange(ids: number[], data: ChangeData): void {
    this.connection.sendEvent(
      encodeText(this.connection.vsn, {
        joinRef: null,
        ref: null,
        topic: this.topic,
        event: 'postgres_changes',
        payload: { ids, data },
      }),
    );
  }

  deliverPresenceDiff(diff: PresenceDiff, frames: FrameCache): void {
    const vsn = this.connection.vsn;
    let frame = frames.get(vsn);
    if (frame === undefined) {
      frame = encodeText(vsn, {
        joinRef: null,
        ref: null,
        topic: this.topic,
        event: 'presence_diff',
        payload: diff,
      });
      frames.set(vsn, frame);
    }
    this.connection.sendEvent(frame);
  }
}

export class RealtimeConnection {
  readonly id = randomUUID();
  private readonly channels = new Map<string, Channel>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  lastSeen = Date.now();

  constructor(
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    /** The verified API key from the URL: the token of a join that brings none. */
    private readonly apiKey: string,
    readonly clientAddress: string,
    private readonly deps: ConnectionDeps,
  ) {
    ws.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    ws.on('close', () => this.cleanUp());
    ws.on('error', (error) => {
      deps.log.debug('realtime socket error', { error: error.message });
    });
  }

  get channelCount(): number {
    return this.channels.size;
  }

  close(code: number, why: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING)
      this.ws.close(code, why);
    this.cleanUp();
  }

  /** Sends a counted realtime event (a delivery the platform metrics call `realtime_events`). */
  sendEvent(frame: string | Uint8Array): void {
    this.deps.metrics.record('realtime', 200, 0);
    this.send(frame);
  }

  private send(frame: string | Uint8Array): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(1013, 'client is not reading its messages');
      return;
    }
    this.ws.send(frame);
  }

  private reply(message: PhoenixMessage, status: 'ok' | 'error', response: unknown = {}) {
    this.send(encodeReply(this.vsn, message, status, response));
  }

  private push(channel: Channel, event: string, payload: unknown) {
    this.send(
      encodeText(this.vsn, {
        joinRef: channel.joinRef,
        ref: null,
        topic: channel.topic,
        event,
        payload,
      }),
    );
  }

  private receive(data: Buffer, isBinary: boolean): void {
    this.lastSeen = Date.now();
    let message: PhoenixMessage & { broadcast?: ClientBroadcast };
    try {
      if (isBinary) {
        if (this.vsn !== '2.0.0') throw new FrameError('binary frames need vsn 2.0.0');
        message = decodeBinary(new Uint8Array(data.buffer, data.byteOffset, data.length));
      } else {
        message = decodeText(this.vsn, data.toString('utf8'));
      }
    } catch (error) {
      if (!(error instanceof FrameError)) throw error;
      // 1007: the frame's data does not fit the protocol; the client is broken, not unlucky.
      this.close(1007, `malformed frame: ${error.message}`.slice(0, 120));
      return;
    }
    this.queue = this.queue
      .then(() => this.handle(message))
      .catch((error: unknown) => {
        this.deps.log.error('realtime message failed', {
          event: message.event,
          error: (error as Error).message,
        });
        const channel = this.channels.get(message.topic);
        if (message.event === 'phx_join' || !channel) {
          this.reply(message, 'error', reason('UnknownErrorOnChannel', 'Unknown Error on Channel'));
        } else {
          this.send(
            encodeText(this.vsn, {
              joinRef: channel.joinRef,
              ref: channel.joinRef,
              topic: channel.topic,
              event: 'phx_error',
              payload: {},
            }),
          );
          this.removeChannel(channel);
        }
      });
  }

  private async handle(message: PhoenixMessage & { broadcast?: ClientBroadcast }): Promise<void> {
    if (this.closed) return;
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') this.reply(message, 'ok');
      return;
    }
    if (message.event === 'phx_join') return this.join(message);
    const channel = this.channels.get(message.topic);
    if (!channel || (message.joinRef !== null && message.joinRef !== channel.joinRef)) {
      this.reply(message, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (message.event) {
      case 'phx_leave':
        this.removeChannel(channel);
        this.reply(message, 'ok');
        return;
      case 'broadcast':
        return this.broadcast(channel, message);
      case 'presence':
        return this.presence(channel, message);
      case 'access_token':
        return this.swapToken(channel, message);
      default:
        // Supabase Realtime ignores unknown events too; they still count against the limits.
        this.takeEvent(channel);
    }
  }

  private refuseJoin(message: PhoenixMessage, refusal: { reason: string }) {
    this.reply(message, 'error', refusal);
  }

  private async join(message: PhoenixMessage): Promise<void> {
    const { topic } = message;
    if (!topic.startsWith(TOPIC_PREFIX))
      return this.refuseJoin(message, { reason: 'unmatched topic' });
    if (topic === TOPIC_PREFIX)
      return this.refuseJoin(message, reason('TopicNameRequired', 'You must provide a topic name'));
    if (!fitsBinaryHeader(topic))
      return this.refuseJoin(
        message,
        reason('TopicNameTooLong', 'Topic names are at most 255 bytes'),
      );
    const payload = isRecord(message.payload) ? message.payload : {};
    const existing = this.channels.get(topic);
    if (!existing && this.channels.size >= this.deps.limits.maxChannelsPerConnection)
      return this.refuseJoin(message, reason('ChannelRateLimitReached', 'Too many channels'));

    const token =
      typeof payload.access_token === 'string' && payload.access_token !== ''
        ? payload.access_token
        : this.apiKey;
    let claims: JwtClaims;
    try {
      claims = await this.deps.verifier.verify(token);
    } catch (error) {
      if (error instanceof TokenError) return this.refuseJoin(message, tokenRefusal(error));
      throw error;
    }
    const config = readJoinConfig(payload);
    let bindings: ChangeBinding[];
    try {
      bindings = readBindings(config.postgresChanges);
    } catch (error) {
      if (!(error instanceof BindingError)) throw error;
      return this.refuseJoin(message, reason('RealtimeDisabledForConfiguration', error.message));
    }
    const channel = new Channel(this, topic, message.ref, token, claims, config);
    const { limiters } = this.deps;
    if (limiters.connectionJoins.take(this.id) > 0 || limiters.keyJoins.take(channel.callerKey) > 0)
      return this.refuseJoin(
        message,
        reason('ClientJoinRateLimitReached', 'Too many joins per second'),
      );
    if (config.isPrivate) {
      const policies = await this.deps.authorizer.readPolicies(claims, channel.name);
      if (!policies.broadcast && !policies.presence)
        return this.refuseJoin(
          message,
          reason(
            'Unauthorized',
            `You do not have permissions to read from this Channel topic: ${channel.name}`,
          ),
        );
      channel.applyReadPolicies(policies);
    }
    // The capture runs before the reply: a change committed after SUBSCRIBED is never missed.
    if (bindings.length > 0) await this.deps.changes.ready();
    // Phoenix semantics: joining a topic again replaces the earlier join on this connection.
    if (existing) this.removeChannel(existing);
    channel.changeBindings = bindings;
    this.channels.set(topic, channel);
    this.deps.hub.join(channel);
    // Listening before the reply: a change committed after SUBSCRIBED is never missed.
    if (bindings.length > 0) this.deps.changes.add(channel);
    this.reply(message, 'ok', {
      postgres_changes: bindings.map((b) => ({ ...b.params, id: b.id })),
    });
    if (channel.presenceEnabled) this.pushPresenceState(channel);
    this.watchToken(channel);
    if (bindings.length > 0) await this.confirmChanges(channel, bindings);
  }

  /** Supabase's system message after a postgres_changes join: subscribed, or why not. */
  private async confirmChanges(channel: Channel, bindings: ChangeBinding[]) {
    const missing = await this.deps.changes.unpublished(bindings);
    const status = missing.length === 0 ? 'ok' : 'error';
    const message =
      missing.length === 0
        ? 'Subscribed to PostgreSQL'
        : `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ${missing
            .map((b) => `[schema: ${b.schema}, table: ${b.table ?? '*'}]`)
            .join(', ')} (realtime.enable_changes)`;
    this.push(channel, 'system', {
      extension: 'postgres_changes',
      status,
      message,
      channel: channel.name,
    });
  }

  private pushPresenceState(channel: Channel) {
    if (channel.isPrivate && !channel.canReadPresence) return;
    this.deps.metrics.record('realtime', 200, 0);
    this.push(
      channel,
      'presence_state',
      this.deps.hub.presenceState(channel.topic, channel.isPrivate),
    );
  }

  /**
   * Closes the channel when its token expires, and checks the token again every few minutes
   * (a session signed out in the meantime is refused by the verifier).
   */
  private watchToken(channel: Channel) {
    clearTimeout(channel.tokenTimer);
    const exp = typeof channel.claims.exp === 'number' ? channel.claims.exp * 1000 : Date.now();
    const wait = Math.max(0, Math.min(exp - Date.now(), RECHECK_TOKEN_MS));
    channel.tokenTimer = setTimeout(() => {
      this.queue = this.queue.then(async () => {
        if (this.channels.get(channel.topic) !== channel) return;
        try {
          await this.deps.verifier.verify(channel.token);
          this.watchToken(channel);
        } catch (error) {
          if (!(error instanceof TokenError)) throw error;
          this.shutdown(channel, tokenRefusal(error).reason.replace(/^[A-Za-z]+: /, ''));
        }
      });
    }, wait);
    channel.tokenTimer.unref();
  }

  /**
   * Supabase Realtime's way to end a channel from the server: a `system` error message the
   * client can show, then `phx_close`, after which realtime-js reports CLOSED.
   */
  private shutdown(channel: Channel, message: string) {
    this.push(channel, 'system', {
      extension: 'system',
      status: 'error',
      message,
      channel: channel.name,
    });
    this.push(channel, 'phx_close', {});
    this.removeChannel(channel);
  }

  private removeChannel(channel: Channel) {
    clearTimeout(channel.tokenTimer);
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic);
    this.deps.hub.leave(channel);
    this.deps.changes.remove(channel);
  }

  /** Counts a client event against the connection's and the caller's limits. */
  private takeEvent(channel: Channel): boolean {
    const { limiters } = this.deps;
    this.deps.metrics.record('realtime', 200, 0);
    return (
      limiters.connectionEvents.take(this.id) === 0 &&
      limiters.keyEvents.take(channel.callerKey) === 0
    );
  }

  private async allowedToWrite(channel: Channel, extension: 'broadcast' | 'presence') {
    if (!channel.isPrivate) return true;
    let answer = channel.canWrite.get(extension);
    if (!answer) {
      answer = this.deps.authorizer.canWrite(channel.claims, channel.name, extension);
      channel.canWrite.set(extension, answer);
    }
    return answer;
  }

  private async broadcast(
    channel: Channel,
    message: PhoenixMessage & { broadcast?: ClientBroadcast },
  ): Promise<void> {
    const broadcast = message.broadcast ?? jsonBroadcast(message.payload);
    if (!this.takeEvent(channel))
      return this.reply(
        message,
        'error',
        reason('ClientRateLimitReached', 'Too many messages per second'),
      );
    if (!broadcast)
      return this.reply(
        message,
        'error',
        reason('InvalidBroadcast', 'A broadcast needs an event name'),
      );
    if (byteLength(broadcast.body) > this.deps.limits.maxMessageBytes)
      return this.reply(
        message,
        'error',
        reason('PayloadSizeExceeded', `Payload is over ${this.deps.limits.maxMessageBytes} bytes`),
      );
    if (!fitsBinaryHeader(broadcast.event))
      return this.reply(
        message,
        'error',
        reason('InvalidBroadcast', 'Event names are at most 255 bytes'),
      );
    if (!(await this.allowedToWrite(channel, 'broadcast')))
      return this.reply(
        message,
        'error',
        reason(
          'Unauthorized',
          `You do not have permissions to write to this Channel topic: ${channel.name}`,
        ),
      );
    this.deps.hub.broadcast(
      {
        topic: channel.topic,
        isPrivate: channel.isPrivate,
        event: broadcast.event,
        body: broadcast.body,
      },
      channel,
    );
    if (channel.ackBroadcast) this.reply(message, 'ok');
  }

  private async presence(channel: Channel, message: PhoenixMessage): Promise<void> {
    const payload = isRecord(message.payload) ? message.payload : {};
    if (!this.takeEvent(channel))
      return this.reply(
        message,
        'error',
        reason('ClientRateLimitReached', 'Too many messages per second'),
      );
    if (payload.event === 'untrack') {
      this.deps.hub.untrack(channel);
      return this.reply(message, 'ok');
    }
    if (payload.event !== 'track')
      return this.reply(
        message,
        'error',
        reason('InvalidPresence', 'Presence events are track and untrack'),
      );
    const meta = payload.payload ?? {};
    if (!isRecord(meta))
      return this.reply(message, 'error', { reason: 'Presence track payload must be a map' });
    if (
      Buffer.byteLength(JSON.stringify(meta)) >
      Math.min(this.deps.limits.maxMessageBytes, MAX_PRESENCE_BYTES)
    )
      return this.reply(
        message,
        'error',
        reason('PayloadSizeExceeded', 'Track message size exceeded'),
      );
    if (!(await this.allowedToWrite(channel, 'presence')))
      return this.reply(
        message,
        'error',
        reason('Unauthorized', `You do not have permissions to track presence on: ${channel.name}`),
      );
    // Tracking turns presence on for the tracker too (as Supabase Realtime does), so it first
    // gets the state, then diffs.
    if (!channel.presenceEnabled) {
      channel.presenceEnabled = true;
      this.pushPresenceState(channel);
    }
    this.deps.hub.track(channel, channel.presenceKey, meta);
    this.reply(message, 'ok');
  }

  private async swapToken(channel: Channel, message: PhoenixMessage): Promise<void> {
    const payload = isRecord(message.payload) ? message.payload : {};
    const token = payload.access_token;
    if (typeof token !== 'string' || token === '' || token === channel.token) return;
    let claims: JwtClaims;
    try {
      claims = await this.deps.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      return this.shutdown(channel, tokenRefusal(error).reason.replace(/^[A-Za-z]+: /, ''));
    }
    if (channel.isPrivate) {
      const policies = await this.deps.authorizer.readPolicies(claims, channel.name);
      if (!policies.broadcast && !policies.presence)
        return this.shutdown(
          channel,
          `You no longer have permission to read from this Channel topic: ${channel.name}`,
        );
      channel.applyReadPolicies(policies);
      channel.canWrite.clear();
    }
    channel.token = token;
    channel.claims = claims;
    this.watchToken(channel);
  }

  private cleanUp() {
    if (this.closed) return;
    this.closed = true;
    for (const channel of [...this.channels.values()]) this.removeChannel(channel);
  }
}

/** A 1.0.0 (or text) broadcast: `{type: 'broadcast', event, payload}`. */
function jsonBroadcast(payload: unknown): ClientBroadcast | undefined {
  if (!isRecord(payload) || typeof payload.event !== 'string' || payload.event === '')
    return undefined;
  return {
    event: payload.event,
    body: { kind: 'json', json: JSON.stringify(payload.payload ?? {}) },
  };
}
