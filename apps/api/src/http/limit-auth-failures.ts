import type { Request, Response } from 'express';
import ipaddr from 'ipaddr.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError, type ServiceContext } from '@transcribe/core';

/** The env default of AUTH_FAILURES_PER_MINUTE (apps/api/src/env.ts), for apps built without it. */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 30;

/** The length of one counting window, seconds. */
const WINDOW_SECONDS = 60;

/**
 * Failed checks of API keys and signed text links, counted per client address, so that one client
 * guessing keys or signatures cannot make the service run a database query per guess.
 */
export interface AuthFailureLimiter {
  /** Failures one address may have in a window of 60 s before it is refused (0: no limit). */
  readonly perMinute: number;
  /**
   * True when no check failed in the last 60 s (or there is no limit), so that no address can be
   * refused: the usual case, in which a request pays for no address and no lookup in the limiter.
   */
  quiet(): boolean;
  /** Seconds `address` must wait before its next key or signature check, or 0 when it may check now. */
  waitSeconds(address: string): Promise<number>;
  /** Counts one failed check (unknown or revoked key, altered signed link) of `address`. */
  failed(address: string): Promise<void>;
}

/**
 * Creates the per-address limit of failed checks (rate-limiter-flexible's memory limiter, one per
 * API process): an address that fails `perMinute` checks within 60 s of its first failure is
 * refused every key and signed-link check until those 60 s end, before any database query. The
 * moment an address reaches the limit is logged once (`warn`, component `http`, `address`).
 * Counted in each process's memory: behind N API processes an address may fail N times as often.
 * Entries end with their window, so memory holds only the addresses that failed in the last minute.
 * @param perMinute AUTH_FAILURES_PER_MINUTE; 0 turns the limit off.
 */
export function createAuthFailureLimiter(perMinute: number, logger?: ServiceContext['logger']): AuthFailureLimiter {
  const limiter = perMinute > 0 ? new RateLimiterMemory({ keyPrefix: 'auth-failures', points: perMinute, duration: WINDOW_SECONDS }) : null;
  let lastFailureAt = Number.NEGATIVE_INFINITY; // performance.now() of the last failure
  return {
    perMinute: Math.max(0, perMinute),
    quiet: () => !limiter || performance.now() - lastFailureAt > WINDOW_SECONDS * 1000,
    async waitSeconds(address) {
      const state = await limiter?.get(address);
      if (!state || state.consumedPoints < perMinute) return 0;
      return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    },
    async failed(address) {
      if (!limiter) return;
      lastFailureAt = performance.now();
      const state = await limiter.penalty(address, 1);
      if (state.consumedPoints === perMinute) {
        const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
        logger?.warn(
          { component: 'http', address, failures: perMinute, retry_after_seconds: seconds },
          `${address} failed ${perMinute} key or signed-link checks within a minute: its checks are refused (429) for ${seconds} s`,
        );
      }
    },
  };
}

/**
 * The address a request's failures are counted under: the client's IP address as express gives it
 * (`req.ip`: the connection's peer, or with `trust proxy` (TRUST_PROXY) the address the trusted
 * proxies name in X-Forwarded-For), an IPv4-mapped IPv6 address as IPv4, and an IPv6 address as its
 * /64 network (`2001:db8:1:2::/64`): one subscriber usually holds a whole /64, so counting single
 * IPv6 addresses would let one client take a fresh address per guess.
 */
export function failureAddressOf(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  if (!ipaddr.isValid(ip)) return ip || 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}

/**
 * Refuses a request whose address is over its limit of failed checks: sets `Retry-After` (whole
 * seconds) and throws, before any key or signature is looked up. Costs nothing while the limiter is
 * quiet (no failure in the last minute).
 * @throws AppError `rate_limited` (429).
 */
export async function refuseOverFailureLimit(limiter: AuthFailureLimiter, req: Request, res: Response): Promise<void> {
  if (limiter.quiet()) return;
  const waitSeconds = await limiter.waitSeconds(failureAddressOf(req));
  if (waitSeconds === 0) return;
  res.set('Retry-After', String(waitSeconds));
  throw new AppError(
    'rate_limited',
    `Too many failed key or signed-link checks from your address: at most ${limiter.perMinute} a minute. Nothing was checked; retry after ${waitSeconds} s with a valid key or link.`,
  );
}
