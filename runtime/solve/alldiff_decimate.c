/* runtime/solve/alldiff_decimate.c: alldiff-max, alldiff-sum (the seed's v4), their tuned variants, and bp-decimate3.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file holds the algorithm, its configurations and the measurements
 * behind them; alldiff_belief.c, alldiff_local.c and alldiff_cache.c its
 * parts (alldiff_decimate.h: the workspace they share).
 *
 * Seed: notebook 000 section 8 (Arity9MaxProductSolver, a C# port of the
 * Python twin in notebook 001 section 7).  One native alldiff factor per
 * unit (runtime/ops/alldiff.h; max-product by one Hungarian solve plus
 * shortest paths, alldiff_max.h, sum-product by a subset DP where the
 * seed used Ryser, alldiff_sum.h),
 * loopy BP with damping 0.5 on a flooding schedule, then decimation:
 *
 *   attempt r = 0, 1, ..., MaxRestarts - 1:
 *     clamp the clues; 30 sweeps from fresh messages (InitSweeps), the
 *     initial messages multiplied by exp(U(-0.6, 0.6)) when r > 0
 *     (BruitInit; restart 0 starts from the canonical messages);
 *     while a cell is free:
 *       the free cell with the largest margin top1 - top2 of its belief
 *       (normalized to sum 1; cells within 1e-12 of the best are tied and
 *       one is drawn uniformly) takes its most probable value, or a value
 *       drawn from its belief when the margin is under 0.25 (Plateau);
 *       clamp it; 4 more sweeps from the current messages (DecimSweeps);
 *     verify the grid against every constraint: valid, return it;
 *     invalid, a contradiction: next attempt (decisions cleared, clues
 *     kept); after MaxRestarts = 30 attempts (29 restarts: the seed's
 *     `for (restart = 0; restart < MaxRestarts; ...)`), unsolved.
 *
 * No constraint propagation and no backtracking: every value comes from a
 * belief, and no decision is ever undone.  Randomness (ties, plateau
 * draws, the noise's seeds) comes from job->rng.  Seed results (C#, 2-31 s
 * per grid): Easy51 51/51, hardest 9/11, top95 first 15 9/15; the
 * sum-product witness (Python, Ryser): hardest 1/11.  Both run the
 * seed's arrays and arithmetic (cfg->seed_eps): a flooding schedule
 * whose variable-to-factor messages are stored and damped like the
 * factor-to-variable ones (damp_both), every normalized message floored
 * at BP_EPS = 1e-12 and 1e-12 added inside the logs, an assignment's
 * entries priced at -log max(q, 1e-12) (fgm_k_alldiff_seed), clues and
 * decisions as normalized (1e-12, ..., 1) rows whose variable-to-factor
 * messages start there and stay frozen, the factors computing no message
 * for them (the seed's free_slots and upd_mask, the Python original's:
 * its C# port keeps updating a decision's messages; fgm_model_v2f_start),
 * the first variable-to-factor messages the evidence rows, with the
 * restart noise on them (fgm_model_v2f_start).  tests/check_v4seed.c
 * checks the beliefs against a transcription of the seed's sweep.
 * Until a change of 2026-12-04 the engine ran its own arrays
 * (undamped cavities, exact zeros for clamps, the noise on the factor
 * messages): hardest 8.1 of 11 on average over --seed 0-9 for
 * alldiff-max, 2/11 for alldiff-sum.  With the seed's: alldiff-max 10, 9, 8, 8, 8, 9, 8, 8,
 * 10 and 9 over --seed 0-9 (mean 8.7; a NumPy transcription of notebook
 * 001's code, with its own generator, fails grids 1 and 5, the seed
 * 9/11), alldiff-sum 1/11 with every seed 0-9 (before: 1-3, mean 1.5)
 * and Easy51 36/51, the transcription's solved
 * flags on every grid but Easy51's 24th (index 23), which the
 * transcription solves in its second, noisy attempt.  How often a first
 * attempt succeeds, 100 seeds a grid, transcription / the engine with
 * the seed's arithmetic / with its own (before): hardest grid 2 7 / 4 /
 * 8, grid 7 20 / 16 / 15, grid 8 22 / 17 / 17, grid 9 5 / 9 / 15, grid
 * 10 7 / 3 / 4; Easy51 grid 6 17 / 14 / 14, 7 32 / 26 / 24, 42 37 / 34 /
 * 34, 48 32 / 39 / 42: within the noise of 100 draws either way, but for
 * hardest's grid 9 before.  (With the whole problem in every update,
 * not the reduced one of fgm_k_alldiff_seed: hardest 9, 9, 8, 8, 7, 9,
 * 8, 8, 11, 9 over --seed 0-9, mean 8.6, at 1.3-3x the time.)
 *
 * alldiff-max runs the seed's parameters (opts->iterations replaces the 30
 * initial sweeps, opts->max_restarts the 29 restarts).  alldiff-sum runs
 * the seed's sum-product witness (notebook 001, _sumprod_attempt and its
 * bench): sum-product messages, 60 initial sweeps and 6 a decision,
 * damping 0.5, the most probable value of the best-margin cell with no
 * plateau draw, 2 attempts, the second's noise 0.5 / 2 (the witness's
 * 0.5 / (r + 1)); the seed solved 1/11 of hardest with it.  (Until
 * 2026-12-04 it ran alldiff-max's settings with sum-product messages:
 * hardest 6/11.)
 *
 * alldiff-max2 and alldiff-sum2 keep the algorithm (BP beliefs decide
 * every value; no propagation, no backtracking; a failed attempt restarts
 * from the clues) and change its schedule and randomization, each change
 * measured on hardest and top95:
 *   - no noise (max2): max-product amplifies any asymmetry into a margin
 *     of 1, so the seed's noise turns true ties into confident wrong
 *     decisions (top95, first 30 grids: 2.1% of attempts succeed with
 *     noise 0.6, 3-4% with 0.05-0.2, 12% with none).  The randomness left
 *     is the draw at each plateau, which is where the ambiguity is.
 *     Sum-product needs the noise (without it its first fixed point is
 *     wrong on 10 of the 11 hardest grids) and more of it: sum2 restarts
 *     with 2.0 (hardest, 61 attempts at most: 8/11 solved with 0.6,
 *     10/11 with 2.0);
 *   - a plateau decision goes to the free cell of least belief entropy
 *     (a two-valued cell before a three-valued one), not to a cell drawn
 *     among those tied at the best margin (top95 with 30 restarts, three
 *     seeds: 7.7-9.9% of attempts succeed, against 5.8-8.0%);
 *   - sure cells in one round: every free cell whose margin is at least
 *     0.99 (max2; sum2: 0.9999) is fixed at once, best-first order being
 *     irrelevant for point masses (sum2: 4x fewer sweeps per attempt; a
 *     lower success rate per attempt, 0.4% against 0.7% on the first 30
 *     grids of top95, but 4x more attempts per second);
 *   - max2 then runs up to 10 undamped sweeps that stop when no message
 *     moves more than 1e-6 (tolerance instead of fixed counts), so a
 *     decision's consequences arrive before the next one; without the
 *     tolerance, undamped (or long damped) max-product drifts away from
 *     its fixed point into confident wrong beliefs;
 *   - an attempt stops as soon as a decision repeats the value of a fixed
 *     peer (or leaves a table no tuple): decisions are never undone, so
 *     its final grid is already invalid; the seed finishes it and then
 *     verifies.  For the same reason a puzzle whose clues alone leave a
 *     free cell no value (fgm_csp_dead_var) is given up before its first
 *     attempt (alldiff-sum2 spent over 90 s in 10000 doomed attempts on
 *     such a grid);
 *   - the deterministic prefix is computed once per puzzle (max2): with
 *     no noise, every attempt runs the same sweeps and decisions up to
 *     its first draw from job->rng, so the model state there (messages,
 *     beliefs, clamps) is saved by the first attempt and loaded by the
 *     next ones, an exact cache: with or without it the same seed gives
 *     the same answers, restarts and contradictions (only the work
 *     counters, inferences, decisions and sweeps, differ: about half).
 *     Each attempt still starts over from that common state,
 *     independent of how earlier attempts ended.  An attempt that
 *     fails before its first draw fails identically every time: the
 *     puzzle is given up at once;
 *   - more restarts, 10000 (max2 ~2-4 ms each, sum2 ~3.5 ms on top95),
 *     within the deadline.  Attempts are independent draws from one
 *     starting state, so the attempts a puzzle needs are geometric:
 *     forum_hardest_1106's first grid, 200 seeds, needed a mean of 235
 *     with max2 (median 150, p99 1120), so 1000 restarts left 1.4% of such
 *     runs unsolved.  With 1000, max2 failed 7 of the 375 forum puzzles
 *     and sum2 6 of top95; with 10000, none (max2 at most 2419 restarts,
 *     sum2 at most 2902).
 * alldiff-max3 keeps max2 (no noise, sure cells together, the saved
 * prefix, 10000 restarts) and changes two things, measured on the ten
 * generated 16x16 puzzles, where max2 solves 5 within 10 s because about
 * one attempt in a thousand succeeds:
 *   - every run starts from fresh messages, undamped, to 1e-6 (at most
 *     100 sweeps; about 10).  The factors are 0/1, so undamped
 *     max-product from uniform messages settles on each cell's support
 *     (the values some matching of each of its units allows; the others
 *     at the floor): a belief is uniform over its support, a margin 0 or
 *     1, and a sure cell is one whose support is a single value.  Warm,
 *     the rounding differences between equally supported values grow
 *     from run to run (one 16x16 attempt's plateau margins: 8e-12,
 *     5e-9, 2e-6) until a drifted belief passes 0.99 and a value no
 *     matching excludes is fixed as sure -- wrong half the time; max2's
 *     damped first run leaves graded beliefs of the same kind.  With the
 *     true value forced at every draw (an offline harness), 82% of max2's
 *     16x16 attempts still fix a wrong sure value, 56% with an undamped
 *     first run, none cold;
 *   - a plateau draw goes to one of the least-entropy cells (two values,
 *     once beliefs are supports) of nearly the widest reach: for each
 *     value of its support, the free peers with two values, that one
 *     among them; its reach is the least of these counts, and the cells
 *     within one of the widest stay candidates.  Whichever value the draw
 *     gives, that many peers are left with one value, so an attempt
 *     needs fewer draws, each a coin flip between supported values.  Only
 *     the widest: 16x16 no better, top95 30% more attempts (fewer paths,
 *     and the shortest not always among them).
 *   16x16, timeout 10 s, -j 2, seeds 0-4: max2 5, 6, 6, 5, 5 solved,
 *   5/6008, 6/5547, 6/4249, 5/5816, 5/5736 attempts succeed (27/27356,
 *   0.1%); max3 7, 7, 7, 7, 5 solved, 7/1818, 7/2158, 7/1540, 7/2185,
 *   5/2055 (33/9756, 0.34%), at about 2x max2's time per attempt
 *   (20-31 ms against 9-11).  Forcing the true values and multiplying
 *   the draws' probabilities gives each attempt's chance of success
 *   without waiting for successes (offline, 200-300 attempts a puzzle),
 *   puzzles 0-9:
 *     max2       .0035 .038 0     .17  .16 .011  .0006 0     .00006 .0006
 *     cold only  .016  .007 .0009 .007 .18 .0002 .004  .004  .0014  .0003
 *     max3       .018  .004 .0011 .007 .19 .0003 .004  .010  .0020  .0003
 *   so the cold runs give up max2's lucky puzzles (1, 3, 5, where its
 *   graded beliefs happen to point the right way) and leave no puzzle
 *   out of reach; the reach helps 0, 2, 7 and 8 and costs 1.  top95
 *   (seeds 0-3): max2 380/5061 attempts succeed (7.5%), max3 380/5360
 *   (7.1%; expected attempts, offline, 1135 against 1168); hardest:
 *   44/408 and 44/569, where two grids of 1-2% make the count
 *   (expected, offline, 137 against 145).  A 9x9 attempt costs max3
 *   1.3-1.6x max2's time (about 50 sweeps against 30).
 * alldiff-sum3 keeps sum2's algorithm (beliefs decide every value, no
 * propagation, no backtracking, a failed attempt restarts from the clues)
 * for the ten generated 16x16 puzzles, of which sum2 solves none within
 * 10 s (0 of 728 attempts, -j 2).  There loopy sum-product settles on a
 * confidently wrong fixed point: on the first puzzle, after sum2's 30
 * damped sweeps, 154 of the 161 free cells pass the 0.9999 margin and 68
 * of them are wrong (the true value at 1e-9 to 1e-17; with 100 or 300
 * sweeps at 1e-20 to 1e-43), and the most probable value is wrong at 68-84
 * of the 161 whatever the sweep count.  With the true value forced at
 * every draw (the offline harness), every attempt of every puzzle fixes a
 * wrong sure cell before its first draw, with or without the noise: no
 * amount of restarts, noise or sweeps helps.  What stays right is the
 * zeros: a value no matching of a unit allows gets an exact zero from the
 * subset DP (floored at 1e-30, FGM_K_FLOOR), the same support max-product
 * finds; the graded rest is worse than no information.  So:
 *   - every run 4 undamped sweeps from fresh messages (cfg->cold): from
 *     the clues of the first puzzle, margin 0.9999 makes 15 cells sure
 *     after 10 damped sweeps, none wrong, 45 after 15 (10 wrong), 120
 *     after 20 (45); undamped, 26 after 4 (none wrong), 77 after 6 (23);
 *     and the graded values fall under 1e-25 of their cell's largest
 *     only after 5-6 undamped sweeps (forced harness, every puzzle: with
 *     6 or 10 sweeps a wrong sure cell in most attempts, with 3-5 in
 *     none);
 *   - beliefs read as their supports (cfg->zero = 1e-25, far above the
 *     zeros' at most 1e-30 * 16^3): a cell is sure when one value is
 *     left, and a draw is uniform over the support at a least-support
 *     cell of nearly the widest reach (max3's bivalue rule).  Draws in
 *     proportion to the belief (forced harness, 3 cold undamped sweeps)
 *     give 8 of the 10 puzzles an attempt's chance of 1e-4 to 1e-9, in
 *     proportion to its square root (4 sweeps) 9 of them 1e-4 to 1e-11,
 *     uniform over the support .0003 to .2: the truth was often the
 *     value the belief called unlikely;
 *   - no noise, so the prefix is saved as in max2 (cfg->cache).
 *   Forced harness, 40 attempts a puzzle, puzzles 0-9:
 *     sum3       .015  .0017 .0011 .0071 .21 .00034 .0032 .010 .0014 .00031
 *   max3's within the noise (its table above): with beliefs read as
 *   supports, sum3 is max3's decimation on sum-product messages, and no
 *   better for it.  16x16, timeout 10 s, -j 2, seeds 0-4: sum3 7, 6, 4,
 *   6, 4 solved, 7/724, 6/887, 4/1518, 6/1334, 4/1260 attempts succeed
 *   (27/5723); its attempts take 15-105 ms (max3's 9-21 on the same
 *   machine, which solved 7 and 7 with seeds 0-1), so per second it finds
 *   fewer.  9x9, seeds 0-3: top95 95/95 each, 380/4853 attempts succeed
 *   (7.8%; sum2 with seed 0: 95/25275, 0.38%, 113 s of wall time against
 *   0.8-1.6 s); hardest 11/11 each, 44/504 (8.7%; sum2 44/988, 4.5%).
 * alldiff-max3 and alldiff-sum3 then got cheaper attempts and better
 * draws (the algorithm unchanged: every value from a belief, no
 * propagation, no backtracking, a failed attempt restarts; an offline
 * harness forced the true value at each draw, as above):
 *   - a free cell that the messages leave no value dooms the attempt
 *     (cfg->empty, fgm_ad_empty_cell; max3 tests every 3 sweeps of a run, sum3
 *     after each run; both after the first run, so an unsolvable grid is
 *     given up at once).  In max3's attempts (16x16 puzzle 0) 6.3 of 8.4
 *     runs came after the first wrong decision, and the longest runs (32
 *     to 100 sweeps, against 4-5) were those where a cell had lost every
 *     value: each message is floored (FGM_K_FLOOR) and normalized, so a
 *     cell whose two values two units exclude shows a two-valued belief
 *     and the run oscillates instead of converging.  Forced harness: the
 *     test never fires on the true path (16x16, top95, hardest);
 *   - max3 draws in the round that fixes the sure cells (cfg->oneround):
 *     undamped max-product from fresh messages on 0/1 factors converges
 *     to the supports of generalized arc consistency, the greatest fixed
 *     point within the clamps, and clamping a cell whose support is one
 *     value leaves that fixed point as it is, so the run after a sure
 *     round (4-5 sweeps) changed nothing.  Not for sum3, whose 4 sweeps
 *     are no fixed point: there the extra run propagates zeros (forced
 *     harness, 16x16: geometric mean of the chances .00097 against
 *     .0043);
 *   - max3's runs after a decision start from the last run's messages
 *     snapped to their supports (cfg->snap, snap_messages), which is
 *     where a cold run would converge but for rounding, and the fixed
 *     point reached within them is the same.  Forced harness with
 *     oneround and snap: every puzzle's chance and draw count identical
 *     to the digit, so only the cost moved: 16x16 seeds 0-2, 100
 *     restarts, sweeps per attempt 76-79 before, 29-31 with empty and
 *     oneround, 26-29 with snap too; 27-37 ms per attempt before, 11-18
 *     after (a shared machine: the ms are loose);
 *   - the value of a plateau draw comes from fgm_ad_local_belief, not
 *     uniformly: one sum-product update of each of the cell's units from
 *     cavities uniform over the supports, i.e. each value weighted by
 *     the share of each unit's perfect matchings of the supports that
 *     give it the value (a subset DP on the unit's free cells).  Forced
 *     harness, 200 attempts a puzzle, puzzles 0-9:
 *     uniform    .017  .0043 .0007 .0069 .18 .0002 .0051 .0077 .0022 .0004
 *     local      .015  .0078 .0016 .0071 .21 .0004 .0032 .0113 .0034 .0010
 *     (geometric mean .0037 -> .0051; 2-2.5x on the three hardest); sum3
 *     likewise, .0031 -> .0043 (40 attempts).  On 9x9 no change (top95,
 *     expected attempts 1160 against 1206; hardest 126 against 117).
 *   16x16, timeout 10 s, -j 2, seeds 0-4, solved and attempts
 *   succeeding, before -> after:
 *     max3  7 7 7 7 6 (34/12375) -> 9 8 7 9 10 (43/15010)
 *     sum3  7 7 4 5 4 (27/5368)  -> 7 6 5 8 4  (30/5040)
 *   (the attempts are mostly those of the puzzles left unsolved, so
 *   their share says little; the solved counts are the measure).  9x9,
 *   seed 0, timeout 60 s: max3 hardest 11/11 (wall 0.12 -> 0.06 s),
 *   top95 95/95 (1.95 -> 0.96 s); sum3 hardest 11/11 (0.07 -> 0.08 s),
 *   top95 95/95 (0.92 -> 1.18 s).
 *   Tried and dropped: the value from a sum-product run of the whole
 *   model on the supports (a second, bp-sum model, each free cell's
 *   unary vector its support) at every draw: 3 sweeps damped 0.5 gave
 *   3.8x the chance (geometric mean .0126 against .0033; 2-6 sweeps,
 *   damping 0.3-0.7 alike) at 3.7x the time per attempt (48 ms against
 *   13), nothing gained per second; 10 sweeps grow confidently wrong
 *   (three puzzles under 1e-13); one undamped sweep is fgm_ad_local_belief
 *   (the same chances, a cross-check of both).  The cell whose local
 *   belief is the most confident, instead of the widest reach: worse
 *   (geometric mean .0003).  Local beliefs raised to 0.5, 1.5 or 2.5: no
 *   better.  sum3 warm from snapped messages: wrong sure cells on the
 *   true path (34 of 410 forced attempts).  Emptiness tested every 2 to
 *   10 sweeps: the same within the noise.
 * alldiff-max3 and alldiff-sum3 share more than the prefix (cfg->tree):
 * the state after the run that follows a round of decisions is a function
 * of the state before it and of the round's draw (the sure cells are the
 * state's), so the attempts form a tree whose node 0 is the prefix, and
 * the state after each of the first FGM_AD_TREE_DEPTH = 2 rounds of an attempt
 * is saved (messages and beliefs, as the prefix) the first time a path
 * reaches it; a later attempt that draws the same cells and values loads
 * it instead of running the sweeps, and one whose run left a cell no
 * value fails there at once.  An exact cache, as the prefix: the same
 * answers, restarts, decisions and contradictions with or without it
 * (tests/check_v4.c compares the two), fewer sweeps.  On 16x16 the first
 * draw is among about 30 (cell, value) pairs and the second among about
 * 250, so the attempts share little beyond the second round: traced on
 * puzzle 2 (299 attempts), 268 reuses at depth 1, 51 at 2, 1 at 3; the
 * saved sweeps 15-19% of the attempt's, the time per attempt 10-13%
 * less (puzzle 2, 150 restarts, seeds 2-3: 709 -> 619 ms and 753 -> 663;
 * depth 1 or 3-6 with 512-1024 nodes no better).  At most FGM_AD_TREE_NODES =
 * 128 states, 160 KB each on 16x16 (20 MB).  16x16, timeout 10 s, -j 1,
 * seeds 0-4 (the same machine, before -> after):
 *     max3  9 8 8 9 10 (44/50) -> 9 9 8 10 10 (46/50)
 *     sum3  7 7 7 8 7  (36/50) -> 7 7 7 8 8   (37/50)
 *   fgm bench 16x16: max3 9/10 median 446 ms -> 9/10 384 ms, sum3 7/10
 *   3016 ms -> 7/10 2200 ms; 9x9 (hardest, top95) all solved, medians
 *   unchanged (max3 1.2 and 3.3 ms, sum3 0.9 and 3.9), means 9.8 ->
 *   8.3 ms (max3, top95) and 12.8 -> 10.5 (sum3).
 * alldiff-max3 then sweeps factor by factor (cfg->sequential, its own
 * plugin NAME_v4seq), each update seeing the beliefs the last ones left,
 * instead of flooding: its runs converge to the supports of generalized
 * arc consistency, the greatest fixed point within the clamps, whatever
 * the order of the updates, in 30% fewer sweeps (a clamp's consequences
 * cross several units within one sweep).  The time per attempt falls less,
 * 8-10% (puzzle 2, 300 restarts, seeds 2-3: 1163 -> 1074 ms, 779 -> 703):
 * the sweeps saved were mostly factors whose cavities had not moved,
 * which the operator's cache (fgm_k_ad_recall) already answered.  The
 * outcomes stayed the same wherever compared (16x16 puzzles 2, 5 and 9,
 * seeds 0-3: the same restarts and contradictions; top95 seed 0: 1146
 * restarts either way); the decisions counted in a doomed attempt may
 * differ, as the emptiness test meets the contradiction a few sweeps
 * apart.  16x16, seeds 0-4: 9 9 8 10 10 -> 9 10 8 10 10 (47/50); fgm
 * bench 16x16 9/10, median 384 -> 349 ms; 9x9 unchanged (hardest 11/11,
 * 0.8 ms; top95 95/95, 2.9 ms).  Not tried for sum3, whose 4 sweeps are
 * no fixed point: sequential ones would reach further in 4, where graded
 * values fall under the threshold (the wrong sure cells above).
 * alldiff-max3 and alldiff-sum3 then weigh a draw's values by two
 * sum-product sweeps over the supports, not one (cfg->local 2 in
 * fgm_ad_local_belief, weigh_row): each peer's cavity toward the drawn cell's
 * unit is its support times its other units' first-sweep messages
 * (row_msg1: from cavities uniform over the supports, the number of
 * matchings of the unit's other free cells that leave each value free,
 * by a sparse subset DP on the 0/1 rows, fgm_k_alldiff_count_free), each
 * normalized and mixed with LOCAL_MIX = 0.7 of uniform, a damping of
 * the first sweep.
 * The earlier trial of a whole-model sum-product run (3.8x the chance at
 * 3.7x the time) had shown the second sweep's information; here it costs
 * about 40 first-sweep rows per draw, and a unit's rows are kept while
 * its supports stay the same.  Forced harness (the true value at each
 * draw, as above; 400 attempts a puzzle, the three hardest):
 *     local (one sweep)   .0014  .00025 .0008   (puzzles 2, 5, 9)
 *     two, mix 0          .0005  .0016  .013    (200 attempts)
 *     two, mix 0.5        .0010  .0016  .0096   (200 attempts)
 *     two, mix 0.7        .0014  .0010  .0067
 *     two, mix 0.8        .0017  .00075 .0047
 *     two, mix 0.9        .0019  .00048 .0025
 *   (over puzzles 0, 1, 2, 5, 8, 9 the geometric mean .0021 -> .0044 with
 *   mix 0, .0051 with 0.5); 0.7 lifts the two worst (5, 9) 4-8x without
 *   costing puzzle 2, which mix 0-0.5 halve.  sum3 likewise (mix 0.7, 100
 *   attempts): .0014 .0003 .0006 -> .0011 .0013 .0063.  The cost: 16x16
 *   attempts 1.3x max3's time (puzzle 2, 200 restarts: 1.2 s -> 1.57 s;
 *   the dense subset DP per row first made it 2x, the sparse one and the
 *   kept rows 1.3x), partly because the attempts now go deeper.  Two
 *   sweeps only at the first three draws (the tree's), mix 0.5: geometric
 *   mean .0035 over the six puzzles, against .0051 at every draw; not
 *   kept.
 *   16x16, timeout 10 s, -j 1, seeds 0-4, before -> after:
 *     max3  9 10 8 10 10 (47/50) -> 9 10 10 9 10 (48/50)
 *     sum3  7 7 7 8 8    (37/50) -> 8 8 10 8 9   (43/50)
 *   (a second run of the final build: max3 9 10 10 8 10, 47/50, sum3
 *   the same 43/50; max3's misses are puzzles 2 and 5, whose expected
 *   time, about 6 s, sits near the 10 s line either way).
 *   fgm bench 16x16: max3 9/10, median 349 -> 76 ms; sum3 7/10 2200 ms ->
 *   8/10 241 ms.  9x9 (fgm bench; all solved before and after): max3
 *   hardest 0.76 -> 0.82 ms, top95 2.9 -> 3.4 ms (means 2.8 -> 4.1 and
 *   7.7 -> 7.8); sum3 hardest 0.83 -> 1.20 ms, top95 3.9 -> 4.2 (means
 *   3.6 -> 5.2, 10.5 -> 9.9): the 9x9 draws gain little and pay the
 *   extra sweep.
 * The draws' subset DPs (row_msg1 and the last sweep of
 * fgm_ad_local_belief, both fgm_k_alldiff_free_weight) then took a
 * quarter of a 16x16 alldiff-max3 attempt; their rows are now ordered so
 * that the union of their values grows slowest (order_rows), which the
 * DP's sets follow: the same counts, so the same outcomes (16x16 and
 * top95 + hardest, CSV counters identical), 16x16 alldiff-max3 with 100
 * restarts 7% faster (mean 301-328 -> 281-284 ms a puzzle, three
 * alternating runs).  Splitting the rows into independent groups (rows
 * sharing no value) gained nothing: a plateau unit's rows form one.
 * bp-decimate3 runs alldiff-sum3's decimation as it was before the
 * changes above (no emptiness test, no fgm_ad_local_belief) on bp-decimate's
 * factor graph, every alldiff lowered to pairwise != factors
 * (cfg->pairwise):
 * every run 4 undamped sweeps from fresh messages, beliefs read as their
 * supports (over 1e-25 of the largest), the cells whose support is one
 * value fixed together, a plateau draw at a least-support cell of nearly
 * the widest reach, the prefix saved, 10000 restarts; a pairwise
 * ("bp-decimate") solver that stays purely probabilistic.  What the
 * pairwise graph cannot give is the matching: a != message zeroes a value
 * only when the other cell's cavity is a point mass on it, so a support
 * is what the fixed peers leave (naked singles), never a value that is
 * the only place left for it in a unit (hidden singles), and attempts
 * need far more draws than alldiff-max3's.  Measured on the first 20
 * grids of top95 (timeout 5 s, -j 2, a shared 2-core machine under load;
 * "a/b": grids solved / attempts made, solved = attempts that succeeded):
 *   - alldiff-max3's max-product as it is (cold, undamped, to 1e-6):
 *     seed 0 5/4737 (0.11%); its runs take about 20 sweeps (max-product
 *     on pairwise factors settles slowly), an attempt about 14 ms against
 *     2 ms for 4 sum-product sweeps (top95 line 1, 300 restarts: 4.2 s
 *     against 0.55 s), for supports of the same kind (a pairwise
 *     max-product message, too, excludes a value only when the other
 *     cell has it alone);
 *   - sum-product, 4 sweeps, draws uniform over the support (sum3's),
 *     seeds 0-2: 14/21477, 9/17971, 11/19525 (0.06%);
 *   - draws in proportion to the square root of the belief over the
 *     support (cfg->sqrt_draw, kept): 15/12734, 13/12373, 13/14870
 *     (0.1%); in proportion to the belief: 14/10171, 10/13911 (seeds
 *     0-1).  So here, unlike with alldiff-sum3's native factors (its
 *     forced harness), the graded beliefs after 4 sweeps carry some
 *     information about the value; the square root tempers it;
 *   - sweeps per run (square-root draws, seed 1): 3 13/18280, 4 13/12373,
 *     5 9/21506; (draws by the belief, seed 0) 6 13/10559, 10 9/19499.
 *     Not checked against the solutions; likely graded values falling
 *     under the threshold, so wrong cells read as sure;
 *   - the threshold (seed 0): 1e-20 15/18090, 1e-28 11/14704, 1e-25
 *     kept (alldiff-sum3's); graded supports instead, values under 1e-4
 *     (1e-2) of the largest read as excluded, 12/28170 (3/71878); 8
 *     sweeps with 1e-4 0/78665, with 1e-8 5/34899;
 *   - graded sure cells (also sure: a graded margin of 0.99) 4/38715,
 *     four grids failing before any draw;
 *   - damping 0.3: 0/58415 (in 4 damped sweeps no message reaches its
 *     zero, so nothing is ever sure);
 *   - bp-decimate's cell choice (the largest graded margin), the value
 *     drawn by the belief 3/26261, its most probable value 0/36905; among
 *     the cells of widest reach the one of largest graded margin, draws
 *     by the belief 1/32618, by its square root 8/16660: the graded
 *     beliefs help to weigh a draw's values, not to choose its cell.
 *   Full corpora, `fgm solve --seed 0 --timeout-ms 10000 -j 2`, compiled,
 *   the same loaded machine (median ms over the solved grids; attempts
 *   made in all):
 *                bp-decimate3               bp-decimate2   alldiff-max3
 *     easy50     50/50   5.0 ms, 1082 att.  35/50   7.5    50/50  1.8
 *     easy51     51/51   5.1 ms,  858       36/51  10.0    51/51  1.6
 *     hardest    11/11  41.9 ms,  797        2/11  56.0    11/11  4.7
 *     top95      78/95   522 ms, 70878       0/95  64.2    95/95  26.8
 *     16x16       0/10  (1504 attempts)      0/10          6/10  3311
 *   bp-decimate2's medians are 1.5-5x README's (the machine was loaded
 *   throughout).  16x16: none of 1504 attempts succeeded; with naked
 *   singles only, an attempt there needs far more draws (not measured).
 * Tried and dropped for alldiff-max2 (top95): a sum-product witness run
 * at each plateau to choose the cell (first 30 grids: 4.5% of attempts
 * succeed, against 17.6%) or only the value (8.7-10%), 6-10x slower per
 * attempt; any restart noise for max-product (0.05 to 3); damping 0.25
 * during decimation (no better, slower); breaking entropy ties by the
 * entropy or the number of free neighbours (worse).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../model.h"
#include "alldiff_decimate.h"

#define TIE 1e-12           /* margins within this of the best are tied */

/* The seed's v4 (Arity9MaxProductSolver's properties). */
static const fgm_ad_cfg cfg_max = {
    .algo = FGM_ALGO_BP_MAX, .init_sweeps = 30, .decim_sweeps = 4,
    .max_restarts = 29, .damping = 0.5, .decim_damping = 0.5, .noise = 0.6,
    .plateau = 0.25, .seed_eps = 1,
};
/* The seed's sum-product witness (notebook 001, _sumprod_attempt and its
 * bench): 60 initial sweeps, 6 a decision, damping 0.5, restart r's noise
 * 0.5 / (r + 1), the argmax only (no plateau draw), 2 attempts. */
static const fgm_ad_cfg cfg_sum = {
    .algo = FGM_ALGO_BP_SUM, .init_sweeps = 60, .decim_sweeps = 6,
    .max_restarts = 1, .damping = 0.5, .decim_damping = 0.5, .noise = 0.5,
    .noise_decay = 1, .seed_eps = 1,
};
static const fgm_ad_cfg cfg_max2 = {
    .algo = FGM_ALGO_BP_MAX, .init_sweeps = 30, .decim_sweeps = 10,
    .max_restarts = 10000, .damping = 0.5, .tolerance = 1e-6, .plateau = 0.25,
    .sure = 0.99, .early_abort = 1, .entropy = 1, .cache = 1,
};
static const fgm_ad_cfg cfg_sum2 = {
    .algo = FGM_ALGO_BP_SUM, .init_sweeps = 30, .decim_sweeps = 4,
    .max_restarts = 10000, .damping = 0.5, .decim_damping = 0.5, .noise = 2.0,
    .plateau = 0.25, .sure = 0.9999, .early_abort = 1, .entropy = 1,
};
/* Every run undamped to 1e-6 within 100 sweeps (they take about 10),
 * sequential, from fresh messages or their equivalent (snap); no run
 * after a sure round; an attempt whose messages leave a cell empty stops
 * at once. */
static const fgm_ad_cfg cfg_max3 = {
    .algo = FGM_ALGO_BP_MAX, .init_sweeps = 100, .decim_sweeps = 100,
    .max_restarts = 10000, .tolerance = 1e-6, .plateau = 0.25, .sure = 0.99,
    .early_abort = 1, .entropy = 1, .cache = 1, .tree = 1, .cold = 1,
    .snap = 1, .oneround = 1, .sequential = 1, .empty = 1, .chunk = 3,
    .local = 2, .bivalue = 1,
};
/* Every run 4 undamped sweeps from fresh messages: sum-product's graded
 * beliefs grow confidently wrong with the sweeps (16x16: 6 undamped or 12
 * damped ones already fix wrong sure cells), its zeros do not.  The
 * factor messages floor at 1e-30 (FGM_K_FLOOR), so a value an alldiff
 * excludes sits at most about 1e-30 * 16^3 of its cell's largest; in 4
 * sweeps no value any matching allows falls under 1e-25. */
static const fgm_ad_cfg cfg_sum3 = {
    .algo = FGM_ALGO_BP_SUM, .init_sweeps = 4, .decim_sweeps = 4,
    .max_restarts = 10000, .plateau = 0.25, .sure = 0.9999, .early_abort = 1,
    .entropy = 1, .cache = 1, .tree = 1, .cold = 1, .empty = 1, .local = 2,
    .bivalue = 1, .zero = 1e-25,
};

/* alldiff-sum3's decimation before its cheaper attempts and weighted
 * draws, on pairwise != factors: 4 undamped sweeps from fresh messages
 * per run, beliefs read as their supports, draws at the two-valued cell
 * of widest reach, in proportion to the square root of the belief (see
 * the top comment). */
static const fgm_ad_cfg cfg_bp3 = {
    .algo = FGM_ALGO_BP_SUM, .init_sweeps = 4, .decim_sweeps = 4,
    .max_restarts = 10000, .plateau = 0.25, .sure = 0.9999, .early_abort = 1,
    .entropy = 1, .cache = 1, .cold = 1, .bivalue = 1, .zero = 1e-25,
    .pairwise = 1, .sqrt_draw = 1,
};

static void
ws_free(void *p)
{
    fgm_ad_ws *w = p;

    if (!w)
        return;
    fgm_model_free(w->model);
    free(w->value);
    free(w->best);
    free(w->tied);
    free(w->margin);
    free(w->bel);
    free(w->raw);
    free(w->supp);
    free(w->prefix);
    free(w->prefix_value);
    fgm_ad_tree_free(w);
    free(w->unit_off);
    free(w->units);
    free(w->q);
    free(w->out);
    free(w->m1);
    free(w->m1_at);
    free(w->m1_ver);
    free(w->m1_row);
    free(w->masks);
    free(w->fw);
    free(w->m1_key);
    free(w);
}

/* Opens the native-alldiff BP model of CSP->ir for CFG into W->model;
 * *ST becomes FGM_EUNSUPPORTED when it cannot run on the backend. */
static int
open_model(fgm_ad_ws *w, const fgm_solve_opts *opts, fgm_status *st)
{
    fgm_ir *ir = fgm_ir_copy(w->csp->ir);
    char name[FGM_IR_MAXNAME];

    if (!ir)
        return 0;
    /* Its own name (generated/NAME_v4.bp-max.so): the plugin must not
     * collide with another solver's settings for the same model.  The
     * variants of one algorithm share the IR: they differ only in run
     * options. */
    if (w->cfg->pairwise)
        snprintf(name, sizeof name, "%.*s_v4pw", FGM_IR_MAXNAME - 6,
                 ir->name);
    else if (w->cfg->sequential)
        snprintf(name, sizeof name, "%.*s_v4seq", FGM_IR_MAXNAME - 7,
                 ir->name);
    else if (w->cfg->seed_eps)
        snprintf(name, sizeof name, "%.*s_v4seed", FGM_IR_MAXNAME - 8,
                 ir->name);
    else
        snprintf(name, sizeof name, "%.*s_v4", FGM_IR_MAXNAME - 4, ir->name);
    memcpy(ir->name, name, sizeof name);
    ir->infer.damp_both = w->cfg->seed_eps;
    ir->infer.algo = w->cfg->algo;
    ir->infer.alldiff = w->cfg->pairwise ? FGM_ALLDIFF_PAIRWISE
                                         : FGM_ALLDIFF_NATIVE;
    ir->infer.schedule = w->cfg->sequential ? FGM_SCHEDULE_SEQUENTIAL
                                            : FGM_SCHEDULE_PARALLEL;
    ir->infer.damping = cfg_max.damping;
    ir->infer.iterations = cfg_max.init_sweeps;
    ir->infer.tolerance = 0.0;
    w->model = fgm_solve_open_model(ir, opts, st);
    if (w->model && w->cfg->seed_eps)
        fgm_model_set_clamp_epsilon(w->model, FGM_K_SEED_EPS);
    return w->model != NULL;
}

/* Lists each cell's alldiff factors (w->unit_off, w->units) and
 * allocates the matrices of fgm_ad_local_belief (not its subset DP's
 * over FGM_K_ALLDIFF_SUM_MAXK values: fgm_ad_local_belief then declines).
 * Returns 0 when out of memory. */
static int
units_open(fgm_ad_ws *w)
{
    const fgm_ir *ir = w->csp->ir;
    int nvars = w->csp->nvars, k = w->csp->maxcard, i, j, n = 0;
    int *fill;

    w->unit_off = calloc((size_t)nvars + 1, sizeof *w->unit_off);
    if (!w->unit_off)
        return 0;
    for (i = 0; i < ir->nfactors; i++)
        if (ir->factors[i].kind == FGM_FACTOR_ALLDIFF)
            for (j = 0; j < ir->factors[i].arity; j++) {
                w->unit_off[fgm_ir_scope(ir, &ir->factors[i])[j] + 1]++;
                n++;
            }
    for (i = 0; i < nvars; i++)
        w->unit_off[i + 1] += w->unit_off[i];
    w->units = malloc(((size_t)n + 1) * sizeof *w->units);
    fill = calloc((size_t)nvars + 1, sizeof *fill);
    w->q = malloc(((size_t)k * k + 1) * sizeof *w->q);
    w->out = malloc(((size_t)k * k + 1) * sizeof *w->out);
    if (!w->units || !fill || !w->q || !w->out) {
        free(fill);
        return 0;
    }
    for (i = 0; i < ir->nfactors; i++)
        if (ir->factors[i].kind == FGM_FACTOR_ALLDIFF)
            for (j = 0; j < ir->factors[i].arity; j++) {
                int v = fgm_ir_scope(ir, &ir->factors[i])[j];

                w->units[w->unit_off[v] + fill[v]++] = i;
            }
    free(fill);
    if (w->cfg->local == 2) {
        w->m1 = malloc(((size_t)ir->nfactors * k * k + 1) * sizeof *w->m1);
        w->m1_at = calloc((size_t)ir->nfactors + 1, sizeof *w->m1_at);
        w->m1_key = calloc((size_t)ir->nfactors * k + 1, sizeof *w->m1_key);
        w->m1_ver = calloc((size_t)ir->nfactors + 1, sizeof *w->m1_ver);
        w->m1_row = malloc(((size_t)ir->nfactors * k + 1)
                           * sizeof *w->m1_row);
        if (w->m1_row)
            memset(w->m1_row, 0xff, ((size_t)ir->nfactors * k + 1)
                                    * sizeof *w->m1_row);
        if (!w->m1 || !w->m1_at || !w->m1_key || !w->m1_ver || !w->m1_row)
            return 0;
    }
    if (k <= FGM_K_ALLDIFF_SUM_MAXK) {
        w->masks = malloc(((size_t)1 << k) * sizeof *w->masks);
        w->fw = calloc((size_t)1 << k, sizeof *w->fw);
        if (!w->masks || !w->fw)
            return 0;
    }
    return 1;
}

static void *
ws_open(const fgm_csp *csp, const fgm_solve_opts *opts, const fgm_ad_cfg *cfg,
        fgm_status *st)
{
    fgm_ad_ws *w = calloc(1, sizeof *w);
    size_t n = (size_t)csp->nvars + 1;

    if (!w)
        return NULL;
    w->csp = csp;
    w->cfg = cfg;
    if (!open_model(w, opts, st)) {
        ws_free(w);
        return NULL;
    }
    w->value = malloc(n * sizeof *w->value);
    w->best = malloc(n * sizeof *w->best);
    w->tied = malloc(n * sizeof *w->tied);
    w->margin = malloc(n * sizeof *w->margin);
    w->bel = malloc(((size_t)csp->maxcard + 1) * sizeof *w->bel);
    if (!w->value || !w->best || !w->tied || !w->margin || !w->bel) {
        ws_free(w);
        return NULL;
    }
    if (cfg->bivalue)
        w->supp = malloc(n * sizeof *w->supp);
    if (cfg->sqrt_draw)
        w->raw = malloc(((size_t)csp->maxcard + 1) * sizeof *w->raw);
    if ((cfg->bivalue && !w->supp) || (cfg->sqrt_draw && !w->raw)
        || (cfg->local && !units_open(w))) {
        ws_free(w);
        return NULL;
    }
    if (cfg->cache) {
        /* The run state is the runtime's in both backends (plugins never
         * allocate), so a copy of it is a snapshot of either. */
        w->nmsg = (size_t)w->model->sched->nedges
                  * (size_t)w->model->sched->stride;
        w->nbelief = (size_t)w->model->sched->nvars
                     * (size_t)w->model->sched->stride;
        w->prefix = malloc((w->nmsg + w->nbelief + 1) * sizeof *w->prefix);
        w->prefix_value = malloc(n * sizeof *w->prefix_value);
        if (cfg->tree)
            w->tree = calloc(FGM_AD_TREE_NODES, sizeof *w->tree);
        if (!w->prefix || !w->prefix_value || (cfg->tree && !w->tree)) {
            ws_free(w);
            return NULL;
        }
    }
    return w;
}

static void *
ws_new_max(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_open(csp, opts, &cfg_max, st);
}

static void *
ws_new_sum(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_open(csp, opts, &cfg_sum, st);
}

static void *
ws_new_max2(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_open(csp, opts, &cfg_max2, st);
}

static void *
ws_new_sum2(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_open(csp, opts, &cfg_sum2, st);
}

static void *
ws_new_max3(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_open(csp, opts, &cfg_max3, st);
}

static void *
ws_new_sum3(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_open(csp, opts, &cfg_sum3, st);
}

/* alldiff-max3 and alldiff-sum3 without their tree: the tests' check
 * that it changes no answer. */
static void *
ws_flat(fgm_ad_ws *w)
{
    if (w)
        fgm_ad_tree_free(w);
    return w;
}

static void *
ws_new_max3_flat(const fgm_csp *csp, const fgm_solve_opts *opts,
                 fgm_status *st)
{
    return ws_flat(ws_open(csp, opts, &cfg_max3, st));
}

static void *
ws_new_sum3_flat(const fgm_csp *csp, const fgm_solve_opts *opts,
                 fgm_status *st)
{
    return ws_flat(ws_open(csp, opts, &cfg_sum3, st));
}

static void *
ws_new_bp3(const fgm_csp *csp, const fgm_solve_opts *opts, fgm_status *st)
{
    return ws_open(csp, opts, &cfg_bp3, st);
}

/* Whether the native alldiff operator runs every alldiff of CSP: one
 * domain size per factor, no more variables than values, and at most 20
 * values for sum-product (its 2^(K+1) doubles). */
static const char *
refuses_for(const fgm_csp *csp, int sum)
{
    const fgm_ir *ir = csp->ir;
    int i, j;

    for (i = 0; i < ir->nfactors; i++) {
        const fgm_ir_factor *f = &ir->factors[i];
        const int *sc = fgm_ir_scope(ir, f);
        int k;

        if (f->kind != FGM_FACTOR_ALLDIFF)
            continue;
        k = fgm_ir_card(ir, sc[0]);
        for (j = 1; j < f->arity; j++)
            if (fgm_ir_card(ir, sc[j]) != k)
                return "an alldiff over variables of different domain sizes "
                       "has no native message operator";
        if (f->arity > k)
            return "an alldiff with more variables than values has no "
                   "native message operator";
        if (sum && k > FGM_K_ALLDIFF_SUM_MAXK)
            return "sum-product alldiff messages take at most 20 values "
                   "(2^(K+1) doubles per factor)";
    }
    return NULL;
}

static const char *
refuses_max(const fgm_csp *csp)
{
    return refuses_for(csp, 0);
}

static const char *
refuses_sum(const fgm_csp *csp)
{
    return refuses_for(csp, 1);
}

/* Runs at most SWEEPS sweeps, warm or cold (with NOISE, seeded from JOB's
 * RNG), counting one inference (*RAN, nullable: the sweeps run).  Returns
 * FGM_ETIMEOUT once the deadline has passed (before the run: nothing
 * run; during it: the run stopped short), else FGM_OK. */
static fgm_status
run(fgm_ad_ws *w, fgm_solve_job *job, int sweeps, int warm, double damping,
    double noise, int *ran)
{
    fgm_run_opts ro;

    if (job->deadline > 0 && fgm_now() > job->deadline)
        return FGM_ETIMEOUT;
    memset(&ro, 0, sizeof ro);
    ro.iterations = sweeps;
    ro.damping = damping;
    ro.use_damping = 1;
    ro.tolerance = w->cfg->tolerance;
    ro.use_tolerance = 1;
    ro.warm = warm;
    ro.noise = noise;
    if (noise > 0.0)
        ro.seed = gsl_rng_get(job->rng);
    return fgm_job_infer(job, w->model, &ro, ran);
}

/* Fixes V to VALUE, counting a decision.  Returns 0 when the attempt is
 * doomed (a fixed peer holds VALUE, or a table has no tuple left) and the
 * configuration stops early, else 1. */
static int
fix(fgm_ad_ws *w, fgm_solve_job *job, int v, int value)
{
    int ok = !w->cfg->early_abort
             || fgm_csp_consistent(w->csp, w->value, v, value);

    w->value[v] = value;
    fgm_model_observe_var(w->model, v, value);
    job->stats.decisions++;
    return ok;
}

/* One round of decisions.  Returns 1 when cells were fixed, 0 when none
 * was free, -1 when the attempt is doomed (cfg->early_abort). */
static int
decide(fgm_ad_ws *w, fgm_solve_job *job)
{
    const fgm_ad_cfg *c = w->cfg;
    int nvars = w->csp->nvars, v, ntied = 0, pick, value;
    double best = -1.0;

    w->dpick = w->dvalue = -1;
    for (v = 0; v < nvars; v++) {
        if (w->value[v] >= 0)
            continue;
        w->margin[v] = fgm_ad_margin_of(w, v, &w->best[v]);
        if (w->margin[v] > best)
            best = w->margin[v];
    }
    if (best < 0.0)
        return 0;
    if (c->sure > 0.0 && best >= c->sure) {
        /* Their beliefs are point masses up to rounding: fixing them in
         * index order rather than best first changes nothing. */
        for (v = 0; v < nvars; v++)
            if (w->value[v] < 0 && w->margin[v] >= c->sure
                && !fix(w, job, v, w->best[v]))
                return -1;
        if (!c->oneround)
            return 1;
        /* The run to their fixed point already left the others' beliefs
         * as they would be with the sure cells clamped: draw now. */
        best = -1.0;
        for (v = 0; v < nvars; v++)
            if (w->value[v] < 0 && w->margin[v] > best)
                best = w->margin[v];
        if (best < 0.0)
            return 0;
    }
    /* From here on the attempt may draw from job->rng: what came before
     * is the same in every noise-free attempt. */
    if (c->cache && !w->prefix_ok && !w->drawn && job->stats.restarts == 0)
        fgm_ad_save_prefix(w);
    w->drawn = 1;
    if (c->entropy && best < c->plateau) {
        ntied = fgm_ad_least_entropy(w);
    } else {
        for (v = 0; v < nvars; v++)
            if (w->value[v] < 0 && w->margin[v] >= best - TIE)
                w->tied[ntied++] = v;
    }
    pick = ntied == 1 ? w->tied[0]
                      : w->tied[gsl_rng_uniform_int(job->rng,
                                                    (unsigned long)ntied)];
    if (best < c->plateau) {
        if (!c->local || !fgm_ad_local_belief(w, pick)) {
            fgm_ad_margin_of(w, pick, &value);
            if (c->sqrt_draw)
                fgm_ad_sqrt_weights(w, pick);
        }
        value = fgm_ad_draw(w, pick, job->rng);
    } else {
        value = w->best[pick];
    }
    w->dpick = pick;
    w->dvalue = value;
    return fix(w, job, pick, value) ? 1 : -1;
}

/* Replaces every message by its support, the values over FGM_AD_SUPPORT times
 * its largest: each of them 1/n for n of them, the others FGM_K_FLOOR,
 * as an undamped cold run leaves them at its fixed point without the
 * rounding differences between equally supported values
 * (cfg->snap). */
static void
snap_messages(fgm_ad_ws *w)
{
    const fgm_sched *s = w->model->sched;
    double *msg = w->model->st.msg, *m, x;
    double zero = w->cfg->zero > 0.0 ? w->cfg->zero : FGM_AD_SUPPORT;
    int e, j, k, n;
    unsigned long long sup;

    for (e = 0; e < s->nedges; e++) {
        k = s->card[s->edge_var[e]];
        m = msg + (size_t)e * (size_t)s->stride;
        sup = fgm_ad_support_mask(m, k, zero);
        for (n = 0, j = 0; j < k; j++)
            n += (int)(sup >> j & 1);
        x = 1.0 / n;
        for (j = 0; j < k; j++)
            m[j] = sup >> j & 1 ? x : FGM_K_FLOOR;
    }
}

/* The run after a round of decisions: cfg->decim_sweeps sweeps, with
 * cfg->chunk in pieces of that many (a warm run continues the sweeps of
 * the last) after each of which a free cell left no value dooms the
 * attempt (fgm_ad_empty_cell).  Returns FGM_OK, FGM_EUNSOLVED when doomed, or
 * FGM_ETIMEOUT. */
static fgm_status
decim_run(fgm_ad_ws *w, fgm_solve_job *job)
{
    const fgm_ad_cfg *c = w->cfg;
    int left = c->decim_sweeps, n, ran, warm = !c->cold || c->snap;
    fgm_status st;

    if (c->snap)
        snap_messages(w);
    do {
        n = c->chunk > 0 && c->chunk < left ? c->chunk : left;
        st = run(w, job, n, warm, c->decim_damping, 0.0, &ran);
        if (st != FGM_OK)
            return st;
        left -= ran;
        warm = 1;
        if (c->empty && fgm_ad_empty_cell(w))
            return FGM_EUNSOLVED;
    } while (ran == n && left > 0 && c->chunk > 0);
    return FGM_OK;
}

/* One attempt: FGM_OK with a verified grid in w->value, FGM_EUNSOLVED on a
 * contradiction, or FGM_ETIMEOUT. */
static fgm_status
attempt(fgm_ad_ws *w, fgm_solve_job *job, int restart)
{
    const fgm_ad_cfg *c = w->cfg;
    int nvars = w->csp->nvars, v, r, n;
    int init = job->opts->iterations > 0 ? job->opts->iterations
                                         : c->init_sweeps;
    double noise = restart == 0 ? 0.0
                   : c->noise_decay ? c->noise / (restart + 1) : c->noise;
    fgm_status st = FGM_OK;

    w->drawn = 0;
    w->at = -1;
    if (w->prefix_ok && noise == 0.0) {
        fgm_ad_load_prefix(w);
    } else {
        fgm_model_clear(w->model);
        for (v = 0; v < nvars; v++) {
            w->value[v] = job->given[v];
            if (job->given[v] >= 0)
                fgm_model_observe_var(w->model, v, job->given[v]);
        }
        if (c->seed_eps) {
            st = fgm_model_v2f_start(w->model, noise,
                                     noise > 0.0 ? gsl_rng_get(job->rng) : 0);
            if (st == FGM_OK)
                st = run(w, job, init, 1, c->damping, 0.0, NULL);
        } else {
            st = run(w, job, init, 0, c->damping, noise, NULL);
        }
        if (st == FGM_OK && c->empty && fgm_ad_empty_cell(w)) {
            /* The clues alone: every attempt would end here. */
            job->stats.contradictions++;
            return FGM_EUNSOLVED;
        }
    }
    while (st == FGM_OK) {
        r = decide(w, job);
        if (r == 0)
            break;
        if (r < 0) {
            job->stats.contradictions++;
            return FGM_EUNSOLVED;
        }
        n = w->at >= 0 ? fgm_ad_tree_find(w, w->at, w->dpick, w->dvalue) : -1;
        if (n >= 0) {
            /* An earlier attempt ran this round from this state. */
            w->at = n;
            if (w->tree[n].failed) {
                job->stats.contradictions++;
                return FGM_EUNSOLVED;
            }
            fgm_ad_tree_load(w, n);
            continue;
        }
        st = decim_run(w, job);
        if (w->at >= 0 && st != FGM_ETIMEOUT)
            w->at = fgm_ad_tree_add(w, st == FGM_EUNSOLVED);
        if (st == FGM_EUNSOLVED) {
            job->stats.contradictions++;
            return st;
        }
    }
    if (st != FGM_OK)
        return st;
    if (!fgm_csp_verify(w->csp, job->given, w->value)) {
        job->stats.contradictions++;
        return FGM_EUNSOLVED;
    }
    return FGM_OK;
}

static fgm_status
solve(fgm_solve_job *job)
{
    fgm_ad_ws *w = job->ws;
    int limit = job->opts->max_restarts > 0 ? job->opts->max_restarts
                : job->opts->max_restarts < 0 ? 0
                                               : w->cfg->max_restarts;
    int r, v;
    fgm_status st = FGM_EUNSOLVED;

    /* The backend the model runs, even when no inference runs (every
     * cell given, or the deadline passed first). */
    job->stats.compiled = fgm_model_is_compiled(w->model);
    w->prefix_ok = 0;
    w->ntree = 0;
    if (w->cfg->early_abort && fgm_csp_dead_var(job->csp, job->given) >= 0) {
        /* The clues leave a free cell no value: whatever an attempt
         * draws, that cell's value repeats a clue's (or leaves a table no
         * tuple), and every attempt would end doomed -- 10000 of them
         * took alldiff-sum2 over 90 s.  Only the clues are read: the
         * search itself stays purely probabilistic. */
        job->stats.contradictions++;
        job->stats.errors = fgm_csp_conflicts(job->csp, job->given,
                                              job->given);
        return FGM_EUNSOLVED;
    }
    for (r = 0; r <= limit; r++) {
        job->stats.restarts = r;
        st = attempt(w, job, r);
        /* Only a failed attempt earns a restart: out of memory, a
         * timeout or a run's error ends the solve with that status. */
        if (st != FGM_OK && st != FGM_EUNSOLVED)
            return st;
        if (st == FGM_OK) {
            for (v = 0; v < job->csp->nvars; v++)
                job->solution[v] = w->value[v];
            return FGM_OK;
        }
        /* Failed before drawing anything, and every restart runs the same
         * noise-free computation: they would all fail the same way. */
        if (!w->drawn && w->cfg->cache && w->cfg->noise == 0.0)
            break;
    }
    /* The last attempt's grid (free cells counted). */
    job->stats.errors = fgm_csp_conflicts(job->csp, job->given, w->value);
    return st;
}

const fgm_solver fgm_solver_alldiff_max = {
    "alldiff-max",
    "native alldiff max-product BP, damping 0.5, 30 sweeps, margin "
    "decimation with 4 each, plateau draws, 30 attempts with noisy "
    "restarts (seed 000 s.8, v4)",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_max,
    ws_new_max,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_sum = {
    "alldiff-sum",
    "the seed's sum-product witness: native alldiff sum-product BP, 60 "
    "sweeps, margin decimation with 6 each, 2 attempts (seed 001 s.7)",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_sum,
    ws_new_sum,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_max2 = {
    "alldiff-max2",
    "alldiff-max tuned: no noise, sure cells fixed together, undamped "
    "sweeps to 1e-6, least-entropy plateau draws, 10000 restarts",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_max,
    ws_new_max2,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_max3 = {
    "alldiff-max3",
    "alldiff-max2 with every run undamped and sequential from fresh "
    "messages and plateau draws at the two-valued cell of widest reach, "
    "weighted by two sum-product sweeps around it on the supports",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_max,
    ws_new_max3,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_sum3 = {
    "alldiff-sum3",
    "sum-product alldiff-max with every run 4 undamped sweeps from fresh "
    "messages, beliefs read as their supports (sure: one value; draws at "
    "the two-valued cell of widest reach, weighted as alldiff-max3's), "
    "10000 restarts",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_sum,
    ws_new_sum3,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_max3_flat = {
    "alldiff-max3-flat",
    "alldiff-max3 without its tree of shared states (for the tests)",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_max,
    ws_new_max3_flat,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_sum3_flat = {
    "alldiff-sum3-flat",
    "alldiff-sum3 without its tree of shared states (for the tests)",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_sum,
    ws_new_sum3_flat,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_bp_decimate3 = {
    "bp-decimate3",
    "pairwise sum-product BP decimation: 4 undamped sweeps from fresh "
    "messages per round, supports as sure cells, draws at two-valued "
    "cells by the square root of the belief, 10000 restarts",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    NULL,
    ws_new_bp3,
    ws_free,
    solve,
};

const fgm_solver fgm_solver_alldiff_sum2 = {
    "alldiff-sum2",
    "sum-product alldiff-max tuned: restart noise 2.0, sure cells fixed "
    "together, least-entropy plateau draws, 10000 restarts",
    FGM_SOLVER_RANDOM | FGM_SOLVER_RESTARTS,
    refuses_sum,
    ws_new_sum2,
    ws_free,
    solve,
};
