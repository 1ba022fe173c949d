/**
 * The three plans, their order and their names as users read them. What each
 * plan receives is in gating.ts; its quota is configuration (config.ts).
 */
import { PLANS, type Plan } from './contract.js';

export { PLANS, type Plan };

const RANK: Record<Plan, number> = { free: 0, developer: 1, business: 2 };

/** The plan's name in messages: "Free", "Developer", "Business". */
export const PLAN_LABEL: Record<Plan, string> = { free: 'Free', developer: 'Developer', business: 'Business' };

/** True when `plan` includes everything `required` includes. */
export function planAtLeast(plan: Plan, required: Plan): boolean {
  return RANK[plan] >= RANK[required];
}

/** The higher of two plans. */
export function higherPlan(a: Plan, b: Plan): Plan {
  return RANK[a] >= RANK[b] ? a : b;
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** Parses a plan name (case-insensitive); throws naming the allowed plans. */
export function parsePlan(value: string): Plan {
  const v = value.trim().toLowerCase();
  if (!isPlan(v)) throw new Error(`unknown plan '${value}' (allowed: ${PLANS.join(', ')})`);
  return v;
}
