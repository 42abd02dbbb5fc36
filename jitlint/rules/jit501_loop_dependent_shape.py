from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._churn import churns


class LoopDependentShape(Rule):
    """
    ## What it does
    Flags a call of a jitted function inside a loop whose (non-static) argument changes shape
    from one iteration to the next: a slice bounded by the loop counter (`x[:i]`, `x[i:]`), an
    array sized by it (`jnp.zeros((i,))`, `jnp.arange(i)`), a list that grows in the loop (passed
    as a pytree, through `jnp.array(...)` or a list comprehension over it, also with a batch axis
    added, `jnp.array(tokens)[None]` or `jnp.array([[word_to_id[w] for w in words]])` (a word
    list that starts as `prompt.split()`: the Indaba LLM practical's generator, 6 compiles in 6
    words), to a model's jitted `__call__` on an instance a classmethod
    factory made: jax-transformer's `JaxFormer.init`, 5 compiles for 5 tokens; silent when a
    padding term takes off the list's length, `[0] * (maxlen - len(generated))`), a tuple grown with
    `acc += (x,)`, an array grown with `jnp.concatenate([acc, x])` (not buffers grown by a
    chunk only when an `if` finds one of them full, `if i >= len(mask):`: a few bucket sizes,
    a Bayesian-optimisation loop's padded observations),
    a boolean-mask index (`x[x > 0]`) of data that changes in the loop, an index array sized by
    each iteration's data (`np.flatnonzero(batch > 0)`, `np.nonzero(...)[0]`, `np.unique(...)`,
    or `x[idx]` indexed by one), or a list/tuple whose length is the loop counter
    (`(x,) * i`, `tuple(range(i))`: a pytree with a new number of leaves). Sizes and one-sided
    slice bounds need not be the counter: the loop's target over a literal list of at least
    three different sizes (`for n in [5, 8, 10]`, also through a name, or an array of them,
    `jnp.asarray([...])`, read back with `n = int(n)`: jax issue 15412), or a value updated on
    every iteration (`size -= 1`, `k += 1` read as `n - k`, `size = size // 2`: followed around
    the loop from where it starts), counts too, as does an array gathered by such an index
    (`x[jnp.arange(n)]`, jax issue 15761), a two-sided slice with one such bound
    (`x[start:n]`), a slice of the current episode (`rewards[start_t:t + 1]` where `start_t`
    moves to the counter under an `if` only, when an episode ends; silent when that `if` tests
    only the counter, `if (t + 1) % horizon == 0`: rl-blox PR 109, 8 compiles in 150 steps of a
    random walk, fixed horizon: 1), and an array carried around the loop and resized from itself on every
    iteration (`m = m[1:, 1:]`, `x = x[:-1]`, `x = x[::2]`, `jnp.delete(x, 0)`,
    `jnp.pad(x, (0, 1))`, jax issue 7930), also as an attribute (`self.m = self.m[1:, 1:]`,
    `self.hist = jnp.vstack([self.hist, row])`). A value stored in an attribute in the loop
    (`state.window = x[:i]`) is followed to the call that reads it, and elementwise arithmetic
    (`jnp.ones(n) * 2.0`) keeps its operand's shape. Slice bounds named from the counter first
    (`start = i * B; end = start + B`) are read through those names: a constant width is silent. Two sizes (a train and an eval shape) are a fixed cost and stay silent,
    and so does a loop that benchmarks each size with `timeit` (a compile per size is what the
    sweep means to pay; jaxlie issue 1).
    A generation loop that feeds the last `k` entries of a sequence it grows
    (`tokens[:, -block_size:]`, also as one branch of `x if ... else x[:, -k:]`) is flagged:
    the length changes on every step until it reaches `k`. So are indices whose count is the
    data's (`np.flatnonzero(rng.random(n) > p)`, `np.unique(labels)`, `np.where(mask)`: the
    NumPy and jax.numpy functions of `jaxfacts.DATA_SIZED_OUTPUTS`, without `size=`) computed
    from values that change in the loop or from a random draw (also in a helper that computes
    them from its parameter and hands them to the jit, called in a loop with new values:
    fedjax's `uniq = jnp.unique(v)` then `_entropy(v, uniq)`, 5 compiles for 5 updates; with
    `size=`, 1), and an array reshaped to a
    shape of the loop counter (`x.reshape((i, i))`, `jnp.reshape(x, (i, n))`). A size drawn at
    random in the loop (`n = rng.integers(10, 200)`, `for n in np.random.choice(...)`) counts
    too, also for NumPy's random draws of that size (`np.random.rand(n, 3)`, `rng.normal(0, 1,
    size=(n, 3))`: `jaxfacts.HOST_RANDOM_SIZE_PARAMS`). The shape carries through
    `.astype(...)` and joins that keep the parts' rows (`np.stack`, `np.concatenate([ids, xy],
    axis=1)`: `jaxfacts.SHAPE_JOINING_CALLS`; not along axis 0, where a pad of `N - n` rows after
    `n` rows is the fix),
    and through a helper that hands its parameter to the jit (`def track(frames, points):
    return apply(frames, points[None])`; also one that runs the jit over its parameter in a
    loop of its own, `for _ in range(n_blocks): x = layer(w, x)`, a decoder's forward), called in
    the loop: reported at the loop's argument (tapnet#42). Sizes may come from a loop over records of a literal list (`for frames, n in
    [(load(k), k) for k in (50, 80, 120)]`).
    An episode is a size too: arrays collected step by step in a loop that the data ends
    (`while not done:`, `if done: break` in `while True:` or `for t in range(T):`), as lists
    stacked after it (`observ.append(obs)` ... `np.stack(observ)`) or a preallocated buffer
    cut to the steps run (`v_buffer[:i + 1]`, split into columns), returned by a rollout
    function (also through helpers that keep the length, `r = reward2go(r)`) and handed to the
    jit once per episode (gebob19's REINFORCE and A2C), also pooled over several episodes
    (`state_pool += list(states)`, then `jnp.array(state_pool)` every 3 episodes: NickDST's
    REINFORCE, 6 compiles in 7 updates), also an empty array grown step by step
    (`rewards = jnp.append(rewards, r)`), and also when the call is in no loop of its own but in
    a function that runs again and again and runs the episode on each call (a loss under
    `jax.grad` in a training step per episode: tobiasmerkt's actor-critic, 14 compiles of the
    jitted returns in 10 episodes); a rollout of a fixed number of steps that resets the
    environment on `done`, an episode padded to the step limit with a mask, or a pool cut to a
    fixed number of steps per update (`state_pool[:32]`: 1 compile), keeps one shape.
    A field of a slice of a sequence object counts as the slice (`trajectory[t:].r`), and the
    jitted function may be one a factory of the module returns (`self._update_step =
    make_update_step(...)` with `return jax.jit(update_step)`: rl_algos eb7ac4d's REINFORCE, 6
    compiles in a 6-step episode; the whole episode passed with a mask, 1).
    An attribute that a method of the class, run again and again, grows by concatenation
    (`self.train_x = jnp.vstack([self.train_x, new_x])`) and that a method run again and again
    passes to the jit counts too (BOBE's Gaussian process, one point per Bayesian-optimisation
    step: `fixtures/shape_churn/gp_training_set_grown_per_update.py`, 6 compiles for the fit and
    5 updates; kept in a fixed-capacity buffer with a mask, 1).
    Names are followed to the definitions that reach the call, so reusing the counter's name
    elsewhere changes nothing. A loop that repeats an earlier loop of the same function or
    module statement for statement (a notebook timing the cached calls after a warm-up) makes
    no new shape and is not flagged (`fixtures/shape_churn/warmed_up_shapes_timed_again.py`).
    Nor is an outer loop over a literal list of sizes around an inner loop of calls (`for N in
    (50, 100, 200): for rs in range(5): f(draw(N))`): each size is a setting of the experiment
    whose compile serves the inner loop's calls (`fixtures/repetition/ok_sample_size_sweep_with_repeats.py`:
    3 compiles, 15 calls), nor a sweep over a literal list of sizes that hands each size to a
    helper calling the jit in its own loop (a timing helper's warm-up and repeats:
    `fixtures/fresh/ok_jit_lambda_binds_swept_network_by_default.py`, 4 compiles for 4 widths).

    ## Why is this bad?
    jit compiles once per distinct input shape. Episodes of a random walk collected until
    `done` compile the jitted update 5 times in 12 episodes (lists stacked, or a buffer cut to
    the steps run); 32-step rollouts with resets, or episodes padded to 200 steps, once.
    Measured on jax 0.10.2 (CPU), 5 iterations:
    `x[:i]`, `jnp.zeros((i,))`, `jnp.array(growing_list)`, a concatenate-accumulator, a boolean
    mask, a growing list pytree, a comprehension over a growing list, a tuple grown with
    `+= (x,)`, a data-sized index array and `(x,) * i` each compile 5 times in 5 calls; an
    index `jnp.arange(n)` for `n` in a list of 5 sizes, and rows gathered by it, compile 5
    times; the same length with other values compiles once; a nanoGPT-style generation loop
    cropping a growing sequence to its last 8 tokens compiles 5 times in 5 steps from a
    1-token prompt, a preallocated 8-token window once; a matrix one row and column smaller
    per iteration (`size -= 1`), `x[:n - k]`, `m = m[1:, 1:]`, `x = x[:-1]`, a halved bound, the attribute
    spellings, `jnp.delete`, `jnp.pad` and `n //= 2` each compile 5 times in 5 calls; `m = m * 0.5`, `x = x[:4]` and a window whose two bounds
    move together (`x[s:s + 4]`, `s += 4`) once; a
    fixed window `x[i:i+4]`, a rolling fixed-length tuple (`w[1:] + (x,)`),
    `lax.dynamic_slice` with a fixed size and padding to a bucket compile once. Indices of a
    new random mask (`np.flatnonzero` of 100 draws, 5 steps) compile 5 times; passing the mask
    itself, once. Inputs reshaped to `(i, i)` for 5 values of `i` compile 5 times (jax#16778).
    Positions of a drawn particle count (10 to 200) compile 5 times in 5 steps (jax#817: drawn
    opponent counts); fresh draws of a fixed 64 particles, once. Five videos of 50 to 200 query
    points handed through a tracking helper compile the model 5 times; padded to 256 points,
    once.

    ## Fix safety
    Fixed windows, padding and masking change what the function sees (padded rows must be
    masked out of reductions); moving the loop into `lax.fori_loop` / `lax.scan` needs the
    carried state to keep one shape.
    """

    code = "JIT501"
    calling_context = True
    name = "loop-dependent-shape"
    summary = "jitted function called in a loop with an argument whose shape changes every iteration"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def total(x):
            return x.sum()

        data = jnp.arange(10.0)
        for i in range(1, 6):
            print(total(data[:i]))
        """,
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def mean(xs):
            return xs.mean()

        history = []
        for step in range(5):
            history.append(float(step))
            print(mean(jnp.array(history)))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def total(x):
            return x.sum()

        data = jnp.arange(20.0)
        for i in range(5):
            print(total(data[i:i + 4]))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for churn in churns(ctx):
            if churn.kind == "shape":
                yield Violation(churn.node, churn.message)
