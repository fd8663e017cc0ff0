// GPU training jobs as CompositePodGroup trees (issue #26's done-when; composite_gangs.ts): the same
// placements from `simulate`, through `simulate --serve`, from our `run` against the pinned
// kube-apiserver, and from upstream's kube-scheduler on it (every_mode.ts).
import { describeEveryMode } from './every_mode.js';
import { compositeGangs } from './composite_gangs.js';

describeEveryMode(compositeGangs);
