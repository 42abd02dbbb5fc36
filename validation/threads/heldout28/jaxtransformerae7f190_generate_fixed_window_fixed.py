# source: https://github.com/michael-diggin/jax-transformer/commit/ae7f19009b971abd2fcd8bfe49776b43ed469e90
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: the commit keeps only the last num tokens (tokens[:, -num:]) before each call, so the jitted model always sees a (1, 8) input and compiles once for 8 sampled tokens (its docstring: 'otherwise we retrace the model call function for every new input shape').
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



# ---- modules.py at ae7f190 ----
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class
from functools import partial


'''
Need a better way to handle the 'params' (model trainable variables)
Currently ~okay but quite fragile (eg ordering matters)
Could use a dictionary in some way
'''


@register_pytree_node_class
class BaseModule(object):
    def __init__(self, *args, **kwargs):
        pass

    def params(self):
        pass

    def aux_data(self):
        return None

    def tree_flatten(self):
        return self.params(), self.aux_data()
    
    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = cls(*children, aux_data)
        return obj
    
    def __call__(self, x):
        raise NotImplemented
    
    @classmethod
    def init(cls, *args, **kwards):
        raise NotImplemented
    
@register_pytree_node_class
class Embedding(BaseModule):
    def __init__(self, embedding: jax.Array, positional_encodings: jax.Array = None, *args) -> None:
        self.embedding = embedding
        self.pos_encodings = positional_encodings
    
    def params(self) -> list[jax.Array]:
        return [self.embedding]
    
    def aux_data(self) -> jax.Array:
        # positional encodings are constants rather than learnable params
        return self.pos_encodings

    @jax.jit
    @partial(jax.vmap, in_axes=(None, 0), out_axes=0)
    def __call__(self, x) -> jax.Array:
        '''
        Take in the tokens, NOT one-hot encoded
        Project using the embeddings
        Add the positional encoding values
        '''
        # x (batch, seq_len)
        batch_seq_len = x.shape[-1]
        x = jnp.take(self.embedding, x, axis=0) # (batch, seq_len, embed_dim)
        x = x * jnp.sqrt(x.shape[-1]) # times sqrt(d_model=embed_dim)
        x = x + self.pos_encodings[:batch_seq_len, :]  # (batch, seq_len, embed_dim) with broadcasting
        return x
    
    @classmethod
    def init(cls, rng: jax.Array, max_seq_len: int, embedding_dim: int, vocab_size: int):
        embedding = jax.random.normal(rng, (vocab_size, embedding_dim)) * 0.02 #/ jnp.sqrt(embedding_dim) # TODO: check this init
        pos_encoding = cls.create_pe(max_seq_len, embedding_dim)
        return cls(embedding, pos_encoding)
    
    @classmethod
    def create_pe(cls, max_seq_len: int, embedding_dim: int) -> jax.Array:
        pe = jnp.zeros(shape=(max_seq_len, embedding_dim))
        pos = jnp.arange(0, max_seq_len, dtype=jnp.float32)[:, None]
        exponent = jnp.arange(0, embedding_dim, 2, dtype=jnp.float32) / embedding_dim
        div_term = jnp.power(1.0/10000.0, exponent)
        pe = pe.at[:, 0::2].set(jnp.sin(pos * div_term))
        pe = pe.at[:, 1::2].set(jnp.cos(pos * div_term))
        return pe
    
@register_pytree_node_class
class Dense(BaseModule):
    def __init__(self, weights: jax.Array, bias: jax.Array, *args) -> None:
        self.weights = weights
        self.bias =  bias

    def params(self) -> list[jax.Array]:
        return [self.weights, self.bias]
    
    @jax.jit
    @partial(jax.vmap, in_axes=(None, 0), out_axes=0)
    def __call__(self, x) -> jax.Array:
        return jnp.matmul(x, self.weights) + self.bias
    
    @classmethod
    def init(cls, rng: jax.Array, input: int, features: int):
        weights = jax.random.normal(rng, (input, features)) * 0.02 #/ jnp.sqrt(input)
        bias = jnp.zeros((features,))
        return cls(weights, bias)

@register_pytree_node_class
class LayerNorm(BaseModule):
    def __init__(self, learned_lambda: jax.Array, learned_beta: jax.Array, eps: jax.Array, *args) -> None:
        self.learned_lambda = learned_lambda
        self.learned_beta = learned_beta
        self.eps = eps

    def params(self) -> list[jax.Array]:
        return [self.learned_lambda, self.learned_beta]
    
    def aux_data(self) -> jax.Array:
        return self.eps
    
    @jax.jit
    @partial(jax.vmap, in_axes=(None, 0), out_axes=0)
    def __call__(self, x) -> jax.Array:
        mean = jnp.mean(x)
        var = jnp.var(x)
        out = ((x - mean) / jnp.sqrt(var + self.eps)) * self.learned_lambda + self.learned_beta
        return out

    @classmethod
    def init(cls, d_model: int, eps: int = 10e-09):
        # initialized with 1 and 0
        lambda_p = jnp.ones((d_model,))
        beta_p = jnp.zeros((d_model,))
        return cls(lambda_p, beta_p, eps)
    
@register_pytree_node_class
class Dropout(BaseModule):
    def __init__(self, rate: jax.Array) -> None:
        self.rate = rate

    def params(self):
        return []
    
    def aux_data(self):
        return self.rate

    @partial(jax.jit, static_argnames=["train"])
    def __call__(self, x: jax.Array, train: bool = False, rng: jax.Array = None) -> jax.Array:
        if self.rate == 0.0 or not train:
            return x
        if self.rate == 1.0:
            return jnp.zeros_like(x)

        kp = 1 - self.rate
        mask = jax.random.bernoulli(rng, kp, x.shape)
        return jnp.where(mask, x / kp, jnp.zeros_like(x))

    @classmethod
    def init(cls, rate: jax.Array):
        return cls(rate)

@register_pytree_node_class
class MultiHeadAttention(BaseModule):
    def __init__(self, W_q: Dense, W_k: Dense, W_v: Dense, W_o: Dense, drop: Dropout, heads: int, *args) -> None:
        self.W_q = W_q
        self.W_k = W_k
        self.W_v = W_v
        self.W_o = W_o
        self.drop = drop
        self.heads = heads

    def params(self) -> list[jax.Array]:
        return [self.W_q, self.W_k, self.W_v, self.W_o, self.drop]
    
    def aux_data(self) -> jax.Array:
        return self.heads
    
    @partial(jax.jit, static_argnames=["train"])
    def __call__(self, x: jax.Array, train: bool = False, rng: jax.Array = None) -> jax.Array:
        # x is (batch size, seq_len, d_model)
        batch, seq_len, d_model = jnp.shape(x)
        q = self.W_q(x).reshape(batch, seq_len, self.heads, -1) # (batch, seq_len, heads, d_k)
        k = self.W_k(x).reshape(batch, seq_len, self.heads, -1) # (batch, seq_len, heads, d_k)
        v = self.W_v(x).reshape(batch, seq_len, self.heads, -1) # (batch, seq_len, heads, d_k)

        q = q.transpose(0, 2, 1, 3) # (batch, heads, seq_len, d_k)
        k = k.transpose(0, 2, 1, 3) # (batch, heads, seq_len, d_k)
        v = v.transpose(0, 2, 1, 3) # (batch, heads, seq_len, d_k)
        attn = self.scaled_dot_product(q, k, v, d_model // self.heads, train, rng) # (batch, heads, seq_len, d_k)
        attn = attn.transpose(0, 2, 1, 3) # (batch, seq_len, heads, d_k)
        attn = attn.reshape(batch, seq_len, d_model)
        attn_o = self.W_o(attn) # (batch, seq_len, d_model)
        return attn_o

    def scaled_dot_product(self, q: jax.Array, k: jax.Array, v: jax.Array, d_k: jax.Array, train: bool, rng: jax.Array) -> jax.Array:
        # q, v, k have dim (batch, heads, seq_len, d_k)
        attn = jnp.matmul(q, jnp.swapaxes(k, -2, -1)) / jnp.sqrt(d_k) # (batch, heads, seq_len, seq_len)
        m_array = self.get_training_mask(q.shape[2])
        attn = jnp.where(m_array, attn, -9e15)
        attn = jax.nn.softmax(attn, axis=-1)
        attn = self.drop(attn, train, rng)
        return jnp.matmul(attn, v) # (batch, heads, seq_len, d_k)

    def get_training_mask(self, seq_len: int) -> jax.Array:
        '''
        Returns a (1, 1, seq_len, seq_len) lower trinagular mask
        that can be used in training
        '''
        mask = jnp.tril(jnp.ones((seq_len, seq_len)))
        return jnp.expand_dims(mask, (0, 1))

    @classmethod
    def init(cls, rng: jax.Array, heads: int, d_model: int, drop_rate: jax.Array):
        # create all proj matrices, have d_keys = d_vals
        assert d_model % heads == 0, "Heads must divide the model dimension evenly"
        rng, q_key, k_key, v_key, o_key = jax.random.split(rng, 5)
        W_q = Dense.init(q_key, d_model, d_model)
        W_k = Dense.init(k_key, d_model, d_model)
        W_v = Dense.init(v_key, d_model, d_model)
        W_o = Dense.init(o_key, d_model, d_model)
        drop = Dropout.init(drop_rate)
        return cls(W_q, W_k, W_v, W_o, drop, heads)
    
@register_pytree_node_class
class Transformer(BaseModule):
    def __init__(self, mha: MultiHeadAttention, norm1: LayerNorm, norm2: LayerNorm,
                dense1: Dense, dense2: Dense,
                dropout1: Dropout, dropout2: Dropout, *args) -> None:
        self.mha = mha
        self.norm1 = norm1
        self.norm2 = norm2
        self.dense1 = dense1
        self.dense2 = dense2
        self.dropout1 = dropout1
        self.dropout2 = dropout2

    def params(self) -> jax.Array:
        return [self.mha, self.norm1, self.norm2, self.dense1, self.dense2, self.dropout1, self.dropout2]

    @partial(jax.jit, static_argnames=["train"])
    def __call__(self, x: jax.Array, train: bool = False, rng: jax.Array = None) -> jax.Array:
        '''
        compute attention with MHA
        residual add + layer norm
        pass to a dense layer with hidden_dims
        relu
        pass to second dense layer back to d_model
        add and norm
        '''
        rng1, rng2, rng3 = None, None, None
        if train:
            rng1, rng2, rng3 = jax.random.split(rng, 3)
        x = self.norm1(x)
        attn = self.mha(x, train, rng1)
        attn = self.dropout1(attn, train, rng2)
        x = self.norm2(x + attn)

        ff_out = self.dense1(x)
        ff_out = jax.nn.gelu(ff_out)
        ff_out = self.dense2(ff_out)
        ff_out = self.dropout2(ff_out, train, rng3)

        return x + ff_out

    @classmethod
    def init(cls, rng: jax.Array, d_model: int, heads: int, hidden_dim: int, dropout_prob: int):
        rng, mha_key, dense1_key, dense2_key = jax.random.split(rng, 4)
        mha = MultiHeadAttention.init(mha_key, heads, d_model, dropout_prob)
        dense1 = Dense.init(dense1_key, d_model, hidden_dim)
        dense2 = Dense.init(dense2_key, hidden_dim, d_model)
        ln1 = LayerNorm.init(d_model)
        ln2 = LayerNorm.init(d_model)
        drop1 = Dropout.init(dropout_prob)
        drop2 = Dropout.init(dropout_prob)
        return cls(mha, ln1, ln2, dense1, dense2, drop1, drop2)


# ---- model.py at ae7f190 ----
from functools import partial
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class
# import modules as mod  # scaffolding: modules.py is defined above in this file
import sys  # scaffolding
mod = sys.modules[__name__]  # scaffolding

@register_pytree_node_class
class JaxFormer(mod.BaseModule):
    def __init__(self, embedding: mod.Embedding, drop: mod.Dropout, transformers: list[mod.Transformer], norm: mod.LayerNorm, lm_head: mod.Dense, *args):
        self.embedding = embedding
        self.drop = drop
        self.transformers = transformers
        self.norm = norm
        self.lm_head = lm_head

    def params(self):
        return [self.embedding, self.drop, self.transformers, self.norm, self.lm_head]

    @partial(jax.jit, static_argnames=["train"])
    def __call__(self, x: jax.Array, train: bool = False, rng: jax.Array = None) -> jax.Array:
        # x is (batch, seq_len)
        x = self.embedding(x) # (batch, seq_len, d_model), this includes the pos encodings
        if train:
            rng, drop_key = jax.random.split(rng)
            x = self.drop(x, train, drop_key)
        block_rng = None
        for tformer in self.transformers:
            if train:
                rng, block_rng = jax.random.split(rng)
            x = tformer(x, train, block_rng) # (batch, seq_len, d_model)
        x = self.norm(x)
        x = self.lm_head(x) # (batch, seq_len, vocab_size)
        return x

    @classmethod
    def init(cls, rng: jax.Array, max_seq_len: int, vocab_size: int, d_model: int,
            num_blocks: int, heads: int, hidden_dim: int, dropout_prob: int):
        rng, e_key, dense_key = jax.random.split(rng, 3)
        embed = mod.Embedding.init(e_key, max_seq_len, d_model, vocab_size)
        drop = mod.Dropout.init(dropout_prob)
        d_blocks = []
        for _ in range(num_blocks):
            rng, block_key = jax.random.split(rng)
            d_blocks.append(mod.Transformer.init(block_key, d_model, heads, hidden_dim, dropout_prob))
        norm = mod.LayerNorm.init(d_model)
        lm_head = mod.Dense.init(dense_key, d_model, vocab_size)
        embed.embedding = jnp.transpose(lm_head.weights) # weight tying
        return cls(embed, drop, d_blocks, norm, lm_head)


# ---- data.py at ae7f190 ----
import jax
import jax.numpy as jnp
'''
Utility function to fetch information like
char <-> int mappings, get the vocab,
get the training/val set etc
'''

class TrainingDataset:
    def __init__(self, from_file: str, validation_split: int = 0.9) -> None:
        self.data = self._read(from_file)
        self.size = len(self.data)
        self.val_split = validation_split
        self._vocab_size = None
        self.ch_int = None
        self.int_ch = None
        self._train_data = None
        self._val_data = None

    def _read(self, filename) -> str:
        with open(filename, 'r') as f:
            data = f.read()
        return data

    def _process(self) -> None:
        chars = sorted(list(set(self.data)))
        self._vocab_size = len(chars)

        self.ch_int = {ch: i for i, ch in enumerate(chars)}
        self.int_ch = {i: ch for i, ch in enumerate(chars)}

    def vocab_size(self) -> int:
        if not self._vocab_size:
            self._process()
        return self._vocab_size

    def encoder(self):
        if not self.ch_int:
            self._process()
        enc = lambda x: [self.ch_int[c] for c in x]
        return enc
    
    def decoder(self):
        if not self.int_ch:
            self._process()
        dec = lambda x: ''.join([self.int_ch[int(i)] for i in x])
        return dec
    
    def _train_val_split(self):
        if not self._vocab_size:
            self._process()
        n = int(len(self.data)*self.val_split)
        train_split = self.data[:n]
        val_split = self.data[n:]
        enc = self.encoder()
        self._train_data = enc(train_split)
        self._val_data = enc(val_split)
    
    # TODO: implement a way to iterate a way through the training data for epoch based training
    def get_batch(self, rng: jax.Array, batch_size: int, seq_len: int, split: str = "train") -> tuple[list[int], list[int]]:
        '''
        get_batch fetches the next `batch_size` of examples, each of `seq_len` in length.
        Each example is chosen randomly from the dataset.
        Use `split` to choose between the training set and the validation set
        '''
        if not self._train_data:
            self._train_val_split()

        data = {"train": self._train_data, "val": self._val_data}.get(split, None)
        if not data:
            raise Exception("Split must be one of train or val")

        size = len(data)
        offsets = jax.random.randint(rng, (batch_size,), 0, size-seq_len)
        # TODO: this could be done with jax.vmap I think
        xs = jnp.stack([jnp.array(data[int(offset):int(offset)+seq_len]) for offset in offsets], axis=0)
        ys = jnp.stack([jnp.array(data[int(offset)+1:int(offset)+1+seq_len]) for offset in offsets], axis=0)
        return xs, ys


# ---- training.py at ae7f190 (update_step, validation_loss and the __main__ training loop are cut; generate is kept) ----
# training.py contains the training code for JaxFormer
import jax
import jax.numpy as jnp
from functools import partial

# from data import TrainingDataset  # scaffolding: defined above, or not needed for generate
# from model import JaxFormer  # scaffolding: defined above, or not needed for generate
# from opt import Adam, OptState, cosine_lr_decay  # scaffolding: defined above, or not needed for generate
# from loss import cross_entropy_loss  # scaffolding: defined above, or not needed for generate


'''
Steps:
1. Load and prepare data
2. Init model and optimizer state
3. Run update loop
4. Validate at a set frequency
5. Checkpoint at a set frequency
'''

DATA_FILE = ".training/data.txt"

MAX_SEQ_LEN = 12  # scaffolding: was 256
MODEL_DIM = 32  # scaffolding: was 384 # 6*64
NUM_TRANSFORMER_BLOCKS = 2  # scaffolding: was 6
HEADS = 2  # scaffolding: was 6
HIDDEN_DIM = 4*MODEL_DIM
DROPOUT_PROB = 0.2

BASE_LR = 0.001
MIN_LR = BASE_LR / 10.
WARMUP_ITERS = 100
DECAY_ITERS = 2500
WEIGHT_DECAY = 0.001

BATCH_SIZE = 64

EVAL_ITERS = 10
EVAL_FREQ = 100
NUM_STEPS = 4000
FREQ = 10


def generate(model, start: str, encoder, decoder, rng: jax.Array, num: int):
    '''
    This function should take in an array of tokens of shape (1, MAX_SEQ_LEN)
    This is a mild hack because otherwise we retrace the model call function
    for every new input shape
    TODO: could use pad tokens here?
    '''
    tokens = start

    for _ in range(num):
        rng, new = jax.random.split(rng)
        tokens = tokens[:, -num:]
        preds = model(tokens, train=False)
        # preds (1, seq_len, vocab_size)
        preds = preds[:, -1, :]
        choice = jax.random.categorical(new, preds, axis=-1) # this applies softmax
        tokens = jnp.append(tokens, jnp.expand_dims(choice, axis=0), axis=1)

    return decoder(tokens[0])


# ---- scaffolding: a tiny character corpus and an untrained model, then sampling as the script would ----
import tempfile  # scaffolding
_f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)  # scaffolding
_f.write("hello jax world, tiny corpus for a char model.\n" * 20)  # scaffolding
_f.close()  # scaffolding
ds = TrainingDataset(_f.name)  # scaffolding: as in __main__, with the stand-in file
vocab_size = ds.vocab_size()  # scaffolding: as in __main__
rng = jax.random.key(111)  # scaffolding: as in __main__
rng, model_key = jax.random.split(rng)  # scaffolding: as in __main__
jax_model = JaxFormer.init(model_key, MAX_SEQ_LEN, vocab_size, MODEL_DIM, NUM_TRANSFORMER_BLOCKS, HEADS, HIDDEN_DIM, DROPOUT_PROB)  # scaffolding: as in __main__
enc = ds.encoder()  # scaffolding: as in __main__
dec = ds.decoder()  # scaffolding: as in __main__
num = 8  # scaffolding
start = jnp.array([enc("hello ja")])  # scaffolding: (1, num) prompt tokens, as the docstring asks
try:  # scaffolding
    output = generate(jax_model, start, enc, dec, rng, num)  # scaffolding
    _report({"jit(__call__)"}, num)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
