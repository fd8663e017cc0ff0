// A profile's pod signatures (runtime/framework.go computeBatchablePlugins and SignPod, KEP-5598):
// the fragments every PreFilter, Filter, PreScore and Score plugin gives, joined into one string.
// A profile with extenders, or with one such plugin that cannot sign, signs no pod.
import * as fw from '../interfaces.js';
import type { PodInfo } from '../pod_info.js';
import { canonicalJson, SchedulerNameSignerName } from '../signers.js';
import { Code, Status } from '../status.js';
import { signCall } from './call_specs.js';
import type { PluginCalls } from './plugin_calls.js';

/** What a profile signs pods with (the parts of the framework it needs). */
export interface SignerProfile {
  readonly profileName: string;
  readonly preFilterPlugins: readonly fw.Plugin[];
  readonly filterPlugins: readonly fw.Plugin[];
  readonly preScorePlugins: readonly fw.Plugin[];
  readonly scorePlugins: readonly fw.Plugin[];
}

export class PodSigner {
  /** The plugins asked, each once, in extension-point order; null when signatures are off. */
  private readonly signers: readonly fw.SignPlugin[] | null;
  /** Why signatures are off, for the start-up log; null when on. */
  readonly disabledBecause: string | null;
  /** Scratch list of the current pod's fragments (one pod is signed at a time). */
  private readonly answers: (readonly fw.SignFragment[])[] = [];

  constructor(
    profile: SignerProfile,
    hasExtenders: boolean,
    private readonly calls: PluginCalls,
    /** None: nothing is logged, and no message is built (Sign refuses most pods, each a message). */
    private readonly log: ((level: number, msg: string) => void) | null = null,
  ) {
    const signers: fw.SignPlugin[] = [];
    const seen = new Set<string>();
    const unsupported: string[] = [];
    for (const list of [profile.preFilterPlugins, profile.filterPlugins, profile.preScorePlugins, profile.scorePlugins]) {
      for (const p of list) {
        if (seen.has(p.name)) continue;
        seen.add(p.name);
        if (fw.isSignPlugin(p)) signers.push(p);
        else unsupported.push(p.name);
      }
    }
    if (hasExtenders) this.disabledBecause = 'it has extenders configured';
    else if (unsupported.length > 0) this.disabledBecause = `plugins do not support it: ${unsupported.join(', ')}`;
    else this.disabledBecause = null;
    this.signers = this.disabledBecause === null ? signers : null;
    if (this.disabledBecause !== null) this.log?.(1, `Disabling signatures for profile ${profile.profileName} because ${this.disabledBecause}`);
  }

  get enabled(): boolean {
    return this.signers !== null;
  }

  /**
   * The pod's signature, or null when it has none (signatures off, or a plugin refused): two
   * pods with one signature get the same verdicts and scores on the same nodes.
   */
  signPod(pod: PodInfo): string | null {
    // Upstream labels the extension point Success whatever the plugins answered.
    const start = this.calls.pointStart();
    const sig = this.sign(pod);
    this.calls.observeExtensionPoint('Sign', null, start);
    return sig;
  }

  private sign(pod: PodInfo): string | null {
    const signers = this.signers;
    if (signers === null) return null;
    // The plugins' answers are kept as they come and joined only when every plugin signed: under
    // the default profile PodTopologySpread refuses every pod.
    const answers = this.answers;
    answers.length = 0;
    // Upstream times every plugin's Sign, not only in sampled cycles.
    const timed = this.calls.measured;
    for (let i = 0; i < signers.length; i++) {
      const p = signers[i]!;
      const fragments = this.calls.call(signCall, p, timed, pod, undefined, undefined);
      if (fragments instanceof Status) {
        if (fragments.code === Code.Success) continue;
        if (this.log === null) return null;
        if (fragments.code === Code.Error) this.log(1, `SignPod failed for plugin ${p.name}: ${fragments.message()}`);
        else this.log(5, `SignPod can't sign pod ${pod.key} due to plugin ${p.name}: ${fragments.message()}`);
        return null;
      }
      answers.push(fragments);
    }
    const sig: Record<string, unknown> = { [SchedulerNameSignerName]: pod.pod.spec.schedulerName ?? '' };
    for (const fragments of answers) for (const f of fragments) sig[f.key] = f.value;
    answers.length = 0;
    return canonicalJson(sig);
  }
}
