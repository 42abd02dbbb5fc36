from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._churn import churns


class RaggedLastBatch(Rule):
    """
    ## What it does
    Flags a jitted function (`jax.jit`, `eqx.filter_jit`, `nnx.jit` without static arguments)
    called in a loop over batches whose last batch is shorter than the others: `for s in range(0, len(x), B): f(x[s:s + B])` (also `x.shape[0]`; also `range(0, n, B)` with `n` and `B` known ints that `B` does not divide, unless the array is known to hold the rows past `n`: rbig_jax's 1,000 samples in batches of 128, 2 compiles; an end clipped in the loop, `end = min(s + B, n)`: JAXTrace's particle chunks, 2 compiles, 1 for a count that `B` divides; a batch bound
    to a name in the loop, and `while s < n: e = min(n, s + B); f(x[s:e]); s = e` with `n` the
    length of `x`) when the length is not known to be a multiple of `B` (the loop may show
    progress, `tqdm(range(...))`, `trange(...)`; the rows may be gathered with a slice of
    shuffled indices, `idx = perm[s:s + B]; f(x[idx])` with `perm` a permutation or `arange`
    as long as the range: `jaxfacts.ROW_INDEX_ARRAYS`) and nothing in
    the loop skips a short batch (an `if` comparing a length or shape with `B` that skips it,
    pads it or guards the call; one that only reshapes it, `x_batch.reshape(-1, 1, 28, 28)`,
    keeps it short: `jaxfacts.SIZE_KEEPING_METHODS`), and a batch
    the loop takes (through names, `enumerate`, `zip`, `tqdm` (also `with tqdm(loader) as
    bar`), dataset methods such as `prefetch`, an item of a dict filled once with loaders,
    `loaders["train"] = DataLoader(...)`, also a dict handed to the function, a field of a
    dataclass that holds the loader, `for x, y in data.training_generator` with `data =
    TrainingData(training_generator=DataLoader(...))` (also handed to the function or returned
    by a helper: MA-Programming's MNIST trainer, 2 compiles, 1 with `drop_last=True`), and conversions
    of the batch that keep its rows, `x.numpy()`, `list(map(lambda t: t.numpy(), batch))`, also a def of the module that returns them, `x, y = _to_array(batch)` (jax-cnn-examples: 2 compiles; a helper that pads a short batch under `if len(y) < B` gives 1), and a tuple moved whole, `x, y = jax.device_put((x, y), device)`; also a generator of the module that re-yields a loader, `while True: yield from trainloader` (qvix: 2 compiles, 1 with `drop_last=True`):
    flax-fm's MovieLens notebook, 2 compiles, and a lambda that returns its iterable, `tqdm =
    lambda it, **kw: it`) from a source whose last batch is shorter: a library loader called without
    its drop keyword (JAX facts `RAGGED_BATCHERS`: torch `DataLoader` without `drop_last=True`,
    `tf.data` `batch`/`padded_batch` and grain `MapDataset.batch`/`IterDataset.batch`/`Batch`
    without `drop_remainder=True`, `np.array_split`; also a class of the module that subclasses
    one and hands the flag on with a false default, like the `NumpyLoader(data.DataLoader)` of
    JAX's data-loading tutorial), or a generator of the module that slices
    its data up to its length (`for s in range(0, len(x), B): yield x[s:s + B]`, `while start <
    n: yield x[start:end]` with `n = x.shape[0]`, also gathering `range(i, min(i + B, n))`
    item by item, the end clipped with `np.minimum` too (non-linear-transformer's sentence
    batches, 2 compiles for 10 sentences in batches of 4), or collecting items into a list that it yields whenever it holds a batch,
    `if len(batch) == B: yield np.stack(batch)`, and yielding the leftover after its loop, `if
    batch: yield ...`: ghif's dl-jax101, 2 compiles, 1 without the leftover; also a nested
    generator a factory returns, `train_iter, n = make_ds(...)` then `train_iter()`; or counting
    `for i in range(num_batches)` with `num_batches = full +
    bool(rest)` of `divmod(num_train, B)` (or `math.ceil(n / B)`, `-(-n // B)`, `(n + B - 1) //
    B`) and slicing `perm[i * B:(i + 1) * B]` (the end may be clipped, `min((i + 1) * B, n)`,
    and the length that of a pytree's leaves, `[a.shape[0] for a in jtu.tree_leaves(data)][0]`,
    as in the equinox-style loader of a Lorenz emulator notebook, 2 compiles), as JAX's own
    MNIST example does, its batches drawn with `next(batches)`), or a function of the module that
    returns a list of such batches (`return [(x[i:i + 32], y[i:i + 32]) for i in range(0, n,
    32)]`, neurobayes' `split_in_batches`; a count `n` the def is given is judged at the call:
    `make_batches(80, 1)` is ragged, `make_batches(128, 0)` is not), or a list that a loop fills
    that way (`batches.append((x[s:s + B], y[s:s + B]))`, also with `end = min(s + B, n)`,
    in a script or in a function that returns it: a PPO agent's `create_minibatches`, 4
    compiles over 4 episode lengths, 1 with full minibatches only), or a loader class whose `__iter__` does so (also over `self.n =
    len(data)`, and a class a factory function defines and returns, whose `stop = n - n % B
    if drop_last else n` takes the factory's flag), here or imported, without dropping the
    remainder (or a loader class whose `__next__` slices `self.indices[self.i:self.i + B]`,
    advances `self.i += B` and raises StopIteration only once `self.i >= len(...)`:
    hmankodiya's DataLoader, 2 compiles; stopping at `self.i + B > len(...)`, 1; or that
    slices batch `self.k` as `[self.k * B:(self.k + 1) * B]` and stops only past the count of
    full batches, `self.k > self.batch_num` with `batch_num = n // B`, or at a count rounded
    up: jax-trainer's dataLoader, 2 compiles; stopping at `self.k == self.batch_num`, 1); the loop may
    get the loader as a parameter that every call of its function
    fills with one (`evaluate(state, test_loader)`); or drops it only when a flag such as
    `shuffle` is true and is called with the flag false; not when the call passes a batch size
    (a literal, or a name bound once to one) that divides the known length of the data it
    passes (`np.random.normal(size=(64, 4))`, or a Generator's `rng.normal(size=(1024, 3))`,
    in batches of 16: equinox's parallelism example; a torchvision dataset's split,
    `DataLoader(datasets.MNIST(root, train=False), batch_size=100)` over its 10,000 images:
    1 compile, batches of 64: 2, `jaxfacts.TORCHVISION_SPLIT_SIZES`; a `TensorDataset` of
    `torch.randn(256, 1, 28, 28)` in batches of 64: 1, of 136 rows: 2,
    `jaxfacts.TENSOR_DATASETS`, `TORCH_SIZED_CONSTRUCTORS`).
    The jitted function may be a method of an object the loop rebinds to what it returns
    (`agent, info = agent.update(batch)` of a flax struct whose jitted `update` returns
    `self.replace(...)`: jax_flow's behaviour-cloning agent, 2 compiles over an endless
    generator of 50 rows in batches of 16, 1 with full batches only).
    The batch may be rebound in the loop on the way (`real = (real - 127.5) / 127.5`, `x = real`,
    `jnp.concatenate([real, fake])`: lengths add up, unless the other part is sized by the
    batch's own length, the padding fix). A batch passed inside a tuple, list or
    dict display (`loss(params, (x[s:s + B], y[s:s + B]))`) counts as passed directly: each
    leaf's shape is part of the signature (the same holds for JIT501 and JIT502). The loop may
    call an eager helper that hands the batch on (`update(params, batch)` with `def
    update(params, batch): return ... jax.grad(loss)(params, batch)` of a jitted `loss`: a
    transform that calls the jit with the arguments it is given, JAX facts
    `ARGUMENT_FORWARDING_TRANSFORMS`).

    ## Why is this bad?
    jit compiles once per input shape, so the short last batch (or the shorter chunks of
    `array_split`) is a second compile, paid again for every batch size and every new jitted
    function. Measured on jax 0.10.2 (CPU): 10 rows in batches of 4 compile twice in 3 calls;
    `np.array_split` of 10 rows into 3 chunks compiles twice; 12 rows in batches of 4 compile
    once; a generator slicing 10 rows in batches of 4 up to the end (diffrax issue 111's
    loader) compiles twice, its fix (`while end <= n`) once; a loader class slicing 10 rows in
    batches of 4 compiles twice, dropping the remainder once; the MNIST example's `data_stream`
    over 1,000 rows in batches of 128 compiles `update` twice, over 1,024 rows once; a jitted
    `loss` differentiated by an eager `update` over 100 rows in batches of 32 compiles 4 times
    (forward and backward, per batch shape), over full batches twice; rows gathered with
    shuffled indices in batches of 32 from 100 rows compile the jitted `mlp_predict` 4 times
    over two epochs (forward and backward), with the remainder dropped twice.

    ## Fix safety
    Dropping the last partial batch changes which data is seen (fine for training epochs, not
    for evaluation); padding it to `B` rows needs the padded rows masked out of means and
    losses.
    """

    code = "JIT504"
    calling_context = True
    name = "ragged-last-batch"
    summary = "a jitted function fed batches whose last one is shorter compiles again for it"

    INVALID = [
        """
        import jax
        import numpy as np

        @jax.jit
        def loss(batch):
            return (batch ** 2).mean()

        data = np.random.rand(1000, 8)
        for start in range(0, len(data), 64):
            print(loss(data[start:start + 64]))
        """,
    ]
    VALID = [
        """
        import jax
        import numpy as np

        @jax.jit
        def loss(batch):
            return (batch ** 2).mean()

        data = np.random.rand(1000, 8)
        for start in range(0, len(data) - 64 + 1, 64):  # full batches only
            print(loss(data[start:start + 64]))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for churn in churns(ctx):
            if churn.kind == "ragged":
                yield Violation(churn.node, churn.message)
