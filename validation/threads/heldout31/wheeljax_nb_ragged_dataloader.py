# source: https://github.com/djvaroli/jax-transformer/blob/85e2682021312f693c19c65fdc2f090583b95928/notebooks/train_transformer.ipynb
# expect: shape-churn at line 354
# runtime: COMPILES 2 CALLS 10
# why: The notebook's RandomIntDataset has 10 samples and the torch DataLoader uses batch_size=8 without drop_last, so every epoch ends with a batch of 2 and the jax.jit(train_step) built by LMTrainer is compiled for both batch shapes: 2 compiles for 10 calls.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
# --- wheeljax package code (wheeljax/utils/mask.py, wheeljax/train/collator.py, wheeljax/train/trainer.py at 85e2682), inlined ---
from collections import UserDict
from typing import Callable, Iterable, Literal

import jax
import numpy as np
import optax
from flax import linen as nn
from flax.core.scope import FrozenVariableDict
from flax.training import train_state
from jax import Array
from jax import numpy as jnp


class tqdm:  # scaffolding: no progress bars
    class tqdm:
        def __init__(self, *a, **k): pass
        def __enter__(self): return self
        def __exit__(self, *a): return False
        def set_postfix(self, **k): pass
        def set_description(self, *a): pass
        def update(self, n): pass


N_CALLS = []  # scaffolding


def create_lookahead_mask(length: int, dtype: str | jnp.dtype = "float32") -> Array:
    """Creates an additive lookahead attention mask based on the shape of the inputs.
    Positions that should not be attended to will contain -inf. Unmasked positions will contain 0.

    Args:
        length (int): the length of the side of the the square lookahead mask.
        dtype (str | jnp.dtype): dtype of the mask array. Defaults to 'float32'.

    Returns:
        Array: a 2D array of shape (length, length).

    Example:
        >>> import jax.numpy as np
        >>> mask = create_lookahead_mask(3)
        >>> print(mask)
        >>> Array([[  0., -inf, -inf],
        >>>        [  0.,   0., -inf],
        >>>        [  0.,   0.,   0.]], dtype=float32)
    """
    mask_shape = (length, length)

    # initialize binary mask with 0s on the upper triangular part
    binary_mask = jnp.tril(jnp.ones(mask_shape, dtype=dtype))

    # Using log on the lower triangular part of the mask to set upper triangular to -inf
    return jnp.log(binary_mask)


def create_padding_mask(
    inputs: Array, padding_token_index: int, dtype: str | jnp.dtype = "float32"
) -> Array:
    """Creates and returns an additive mask for padding tokens.

    Positions with padding token index set to -inf are not attended to.
    Positions with padding token index set to 0 are attended to.

    Args:
        inputs (Array): a 2D array of shape (batch_size, seq_len).
        padding_token_index (int, optional): index of the padding token. Defaults to 0.
        dtype (str | jnp.dtype, optional): dtype of the mask array. Defaults to 'float32'.

    Returns:
        Array: a 2D array of shape (batch_size, seq_len) with -inf on the padding tokens.
    """

    if inputs.ndim != 2:
        raise ValueError("Expected inputs to be a 2D tensor.")

    # will have zeros at positions with padding token
    inverse_mask = (inputs != padding_token_index).astype(dtype)

    # will have -inf at positions with padding token
    return jnp.log(inverse_mask).astype(dtype)




class JaxBatch(UserDict):
    def device_put(self, device: str) -> "JaxBatch":
        for key, value in self.items():
            self[key] = jax.device_put(value, device)


def collate_for_clm(examples: list[dict[str, list]], key: str = "input_ids") -> Array:
    # assume that examples have already been padded to be of equal lengths.
    # pre-allocate the batch
    n_examples = len(examples)
    example_length = len(examples[0][key])

    # since clm use int
    batch = jnp.zeros((n_examples, example_length)).astype(jnp.int32)

    # assumes examples are coming from HF `transformers` tokenizer
    for i, example in enumerate(examples):
        batch = batch.at[i, :].set(example[key])

    return batch


class CollatorForCausalLM:
    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, examples: list[dict[str, list]]) -> JaxBatch:
        input_batch = collate_for_clm(examples, key="input_ids")
        labels = input_batch.copy()

        # special_tokens_mask
        special_tokens_mask = labels == self.tokenizer.pad_token_id

        # the model will handle re-shaping the masks as needed, keep them 2D here
        lookahead_mask = create_lookahead_mask(input_batch.shape[-1])
        padding_mask = create_padding_mask(input_batch, self.tokenizer.pad_token_id)

        return JaxBatch(
            inputs=input_batch,
            labels=labels,
            lookahead_mask=lookahead_mask,
            padding_mask=padding_mask,
            special_tokens_mask=special_tokens_mask,
        )


class TransformerLM(nn.Module):  # scaffolding: stand-in for wheeljax.model.TransformerLM (embedding + dense, same call signature)
    vocab_size: int
    model_dim: int = 32

    @nn.compact
    def __call__(self, inputs, train=True, lookahead_mask=None, padding_mask=None, **kwargs):
        embedding = nn.Embed(self.vocab_size, self.model_dim)
        out = nn.Dense(self.model_dim)(embedding(inputs))
        out = nn.Dropout(rate=0.1)(out, deterministic=not train)
        return jnp.matmul(out, jnp.transpose(embedding.embedding, (1, 0)))



# TODO: using LM-specific trainer for speed, need to create abstractions
class LMTrainer:
    def __init__(
        self,
        model: TransformerLM,
        example_batch: JaxBatch,
        max_iters: int,
        lr: float = 1e-3,
        warmup: int = 100,
        seed: int = 42,
        report_to: Literal["wandb"] | None = None,
    ):
        """
        Inputs:
            model_name - Name of the model. Used for saving and checkpointing
            exmp_batch - Example batch to the model for initialization
            max_iters - Number of maximum iterations the model is trained for. This is needed for the CosineWarmup scheduler
            lr - Learning rate in the optimizer
            warmup - Number of warmup steps. Usually between 50 and 500
            seed - Seed to use for model init
            log_to: Where to log training progress. Currently only supports "wandb" or no logging.

        """
        super().__init__()
        self.model = model
        self.max_iters = max_iters

        self.lr = lr
        self.warmup = warmup
        self.seed = seed
        self.rng = jax.random.PRNGKey(self.seed)
        # Create empty model. Note: no parameters yet
        self.model = model

        # init train state
        state, rng = self.init_model(example_batch)
        self.state = state
        self.rng = rng

        # Create jitted training and eval functions
        train_step, eval_step = self.create_functions()
        self.train_step = train_step
        self.eval_step = eval_step

        self.history = {"train": {"loss": [], "perplexity": []}}

        self.report_to = report_to

    def get_loss_function(
        self,
    ) -> Callable[
        [
            FrozenVariableDict | dict[str, Array],
            jax.random.PRNGKey,
            bool,
            dict[str, Array],
        ],
        tuple[Array, Array, jax.random.PRNGKey],
    ]:
        def compute_batch_loss(
            params: FrozenVariableDict | dict[str, Array],
            rng: jax.random.PRNGKey,
            train: bool,
            **inputs,
        ) -> tuple[Array, Array, jax.random.PRNGKey]:
            rng, dropout_apply_rng = jax.random.split(rng, 2)

            # expected shape (batch_size, seq_len)
            labels: Array = inputs.pop("labels")

            # special token mask indicates which positions are padding
            # TODO: utilize mask when computing loss
            special_token_mask = inputs.pop("special_token_mask", None)

            # expected shape (batch_size, seq_len, vocab_size)
            logits: Array = self.model.apply(
                {"params": params},
                **inputs,
                train=train,
                rngs={"dropout": dropout_apply_rng},
            )

            # shift by one to predict next token
            shift_logits = logits[:, :-1, :]
            shift_labels = labels[:, 1:]

            # flatten logits and labels (bs, sl, vs) -> (bs * sl, vs)
            # and (bs, sl) -> (bs * sl, )
            shift_logits = shift_logits.reshape(-1, shift_logits.shape[-1])
            shift_labels = shift_labels.reshape(-1)

            # loss batch can contain nans (e.g. if an index is set to -100)
            loss_batch = optax.softmax_cross_entropy_with_integer_labels(
                shift_logits, shift_labels
            )

            loss = jax.numpy.nanmean(loss_batch)
            ppl = jax.numpy.exp(loss)

            return loss, (ppl, rng)

        return compute_batch_loss

    def init_model(self, example_batch: JaxBatch) -> None:
        """Initialize model.

        Args:
            example_batch (example_batch): a dictionary with the following keys:
                "inputs", "labels", "lookahead_mask", "padding_mask"
        """
        # Initialize model
        rng, init_rng, dropout_init_rng = jax.random.split(self.rng, 3)

        params = self.model.init(
            {"params": init_rng, "dropout": dropout_init_rng},
            **example_batch,
            train=True,
        )["params"]

        # Initialize learning rate schedule and optimizer
        lr_schedule = optax.warmup_cosine_decay_schedule(
            init_value=0.0,
            peak_value=self.lr,
            warmup_steps=self.warmup,
            decay_steps=self.max_iters,
            end_value=0.0,
        )

        optimizer = optax.chain(
            optax.clip_by_global_norm(1.0),  # Clip gradients at norm 1
            optax.adam(lr_schedule),
        )

        # Initialize training state
        state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optimizer
        )

        return state, rng

    def create_functions(self) -> tuple[Callable, Callable]:
        # TODO: hard to read, simplify
        compute_batch_loss: Callable[
            [
                FrozenVariableDict | dict[str, Array],
                jax.random.PRNGKey,
                bool,
                dict[str, Array],
            ],
            tuple[Array, Array, jax.random.PRNGKey],
        ] = self.get_loss_function()

        def train_step(
            state: train_state.TrainState, rng: jax.random.PRNGKey, **inputs: Array
        ) -> tuple[train_state.TrainState, jax.random.PRNGKey, Array, Array]:
            # TODO: return perplexity here maybe
            loss_fn = lambda params: compute_batch_loss(
                params, rng, train=True, **inputs
            )
            ret, grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)

            # ret is a tuple(loss, (aux_data,))
            loss, ppl, rng = ret[0], *ret[1]
            state = state.apply_gradients(grads=grads)
            return state, rng, loss, ppl

        # TODO: not working and not implemented
        def val_step(rng: jax.random.PRNGKey, **inputs: Array):
            loss, ppl, rng = compute_batch_loss(
                self.state.params, rng, train=False, **inputs
            )
            return loss, ppl, rng

        return jax.jit(train_step), jax.jit(val_step)

    def train_epoch(
        self,
        train_loader: Iterable[JaxBatch],
        wandb_run=None,
    ):
        with tqdm.tqdm(total=len(train_loader), leave=False) as pbar:
            for batch in train_loader:
                self.state, self.rng, loss, ppl = self.train_step(
                    self.state, self.rng, **batch
                )
                N_CALLS.append(1)  # scaffolding
                self.history["train"]["loss"].append(loss.item())
                self.history["train"]["perplexity"].append(ppl.item())

                pbar.set_postfix(loss=loss.item(), perplexity=ppl.item())
                pbar.update(1)
                if wandb_run is not None:
                    wandb_run.log(
                        {"train/loss": loss.item(), "train/perplexity": ppl.item()}
                    )

    def train(self, n_epochs: int, train_loader: Iterable[JaxBatch]):
        per_epoch_steps = len(train_loader)

        wandb_run = None
        if self.report_to == "wandb":
            raise NotImplementedError  # scaffolding: wandb is not used here

        with tqdm.tqdm(total=n_epochs) as pbar:
            for epoch in range(n_epochs):
                pbar.set_description(f"Epoch {epoch + 1} / {n_epochs}")
                self.train_epoch(train_loader, wandb_run=wandb_run)
                epoch_losses = self.history["train"]["loss"][
                    epoch * per_epoch_steps : (epoch + 1) * per_epoch_steps
                ]
                epoch_perplexity = self.history["train"]["perplexity"][
                    epoch * per_epoch_steps : (epoch + 1) * per_epoch_steps
                ]
                mean_epoch_loss = np.mean(epoch_losses)
                mean_epoch_perplexity = np.mean(epoch_perplexity)
                pbar.set_postfix(loss=mean_epoch_loss, perplexity=mean_epoch_perplexity)
                pbar.update(1)


# --- notebook notebooks/train_transformer.ipynb ---
# cell 0
import jax
import torch
from torch.utils.data import DataLoader, Dataset

# from wheeljax.model import TransformerLM  (inlined above)
# from wheeljax.train import CollatorForCausalLM, LMTrainer  (inlined above)
# cell 1
class RandomIntDataset(Dataset):
    def __init__(
        self, 
        seq_len: int,
        vocab_size: int, 
        n_samples: int = 10,
        seed: int = 42,
        padding_amount: int | None = None
    ) -> None:
        self.vocab_size = vocab_size
        self.seq_len = seq_len
        self.n_samples = n_samples
        self.rng = jax.random.PRNGKey(seed)

        # could create samples at __getitem__ call instead
        self._data = jax.random.randint(
            self.rng, (n_samples, seq_len), minval=0, maxval=self.vocab_size
        )

        self.padding_amount = padding_amount            
        if self.padding_amount is not None:
            self.pad_token_id = self.vocab_size
            self.vocab_size += 1
            
            padding = jax.numpy.full((n_samples, self.padding_amount), self.pad_token_id)
            self._data = jax.numpy.concatenate([self._data, padding], axis=-1)
    
    def __getitem__(self, index) -> dict[str, list]:
        if index > self.n_samples - 1:
            raise ValueError("Index larger than length.")
        
        return {"input_ids": self._data[index, :].tolist()}

    def __len__(self) -> int:
        return self.n_samples


class TokenizerStandin:
    def __init__(self, pad_token_id: int = 0) -> None:
        self.pad_token_id = pad_token_id
# cell 2
train_dataset = RandomIntDataset(3, 4, padding_amount=3)
print(train_dataset[0])  # scaffolding: print instead of cell display
# cell 3
random_seed = 42
batch_size = 8

rng = torch.Generator()
rng.manual_seed(random_seed)

collator = CollatorForCausalLM(TokenizerStandin(pad_token_id=train_dataset.pad_token_id))

train_loader = DataLoader(
    train_dataset, 
    batch_size=batch_size,
    generator=rng,
    collate_fn=collator
)
# cell 4
batch = next(iter(train_loader))
print(list(batch.keys()))
print(batch['inputs'], batch['labels'], batch["special_tokens_mask"])  # scaffolding: print instead of cell display
# cell 5
model = TransformerLM(vocab_size=train_dataset.vocab_size)
# cell 6
trainer = LMTrainer(
    model, 
    example_batch=batch.copy(), 
    max_iters=101,
    report_to=None
)
# cell 7
trainer.train(5, train_loader)
_report({"jit(train_step)"}, len(N_CALLS))  # scaffolding
