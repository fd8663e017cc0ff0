// DynamicResourcesArgs: defaulting and validation (apis/config/v1 SetDefaults_DynamicResourcesArgs,
// validation/validation_pluginargs.go ValidateDynamicResourcesArgs), with the pinned gates.
import type { FieldError } from '../../framework/registry.js';
import { childPath, fieldForbidden, fieldInvalid } from '../../api/field_errors.js';
import { parseDurationNanos } from '../../util/duration.js';
import { bindingConditionsEnabled, pinnedDraFeatures, type DraFeatures } from './features.js';

export interface DynamicResourcesArgs {
  /** How long Filter may spend allocating for one node (Go duration; "0s" disables the limit). */
  readonly filterTimeout?: string;
  /** How long PreBind waits for devices' binding conditions (Go duration). */
  readonly bindingTimeout?: string;
}

/** configv1.DynamicResourcesFilterTimeoutDefault and DynamicResourcesBindingTimeoutDefault. */
const DefaultFilterTimeout = '10s';
const DefaultBindingTimeout = '10m0s';

const allowedFields = ['apiVersion', 'kind', 'filterTimeout', 'bindingTimeout'];

function durationField(given: Record<string, unknown>, key: string): string | undefined {
  const v = given[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Error(`DynamicResourcesArgs: ${key}: expected a duration string, got ${JSON.stringify(v)}`);
  return v;
}

/** Fills each timeout whose feature is on by default, as upstream's defaulting does. */
export function defaultDynamicResourcesArgs(given: Record<string, unknown>, features: DraFeatures = pinnedDraFeatures): DynamicResourcesArgs {
  for (const k of Object.keys(given)) {
    if (!allowedFields.includes(k)) throw new Error(`DynamicResourcesArgs: unknown field "${k}"`);
  }
  const filterTimeout = durationField(given, 'filterTimeout') ?? (features.enableDRASchedulerFilterTimeout ? DefaultFilterTimeout : undefined);
  const bindingTimeout = durationField(given, 'bindingTimeout') ?? (bindingConditionsEnabled(features) ? DefaultBindingTimeout : undefined);
  const out: { filterTimeout?: string; bindingTimeout?: string } = {};
  if (filterTimeout !== undefined) out.filterTimeout = filterTimeout;
  if (bindingTimeout !== undefined) out.bindingTimeout = bindingTimeout;
  return out;
}

export function validateDynamicResourcesArgs(args: DynamicResourcesArgs, path: string, features: DraFeatures = pinnedDraFeatures): FieldError[] {
  const errs: FieldError[] = [];
  if (args.filterTimeout !== undefined) {
    const at = childPath(path, 'filterTimeout');
    if (!features.enableDRASchedulerFilterTimeout) errs.push(fieldForbidden(at, 'DRASchedulingFilterTimeout feature gate is disabled'));
    else if (parseDurationNanos(args.filterTimeout) < 0) errs.push(fieldInvalid(at, args.filterTimeout, 'must be zero or positive'));
  }
  if (args.bindingTimeout !== undefined) {
    const at = childPath(path, 'bindingTimeout');
    if (!bindingConditionsEnabled(features)) {
      errs.push(fieldForbidden(at, 'DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled'));
    } else if (parseDurationNanos(args.bindingTimeout) < 1e9) {
      errs.push(fieldInvalid(at, args.bindingTimeout, 'must be at least 1 second'));
    }
  }
  return errs;
}

/** A validated timeout in milliseconds (0 when unset). */
export function timeoutMs(d: string | undefined): number {
  return d === undefined ? 0 : parseDurationNanos(d) / 1e6;
}
