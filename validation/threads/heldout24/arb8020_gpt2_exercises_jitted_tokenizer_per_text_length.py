# source: https://github.com/arb8020/jax-gpt2-exercises/blob/7c1374ea81bb7847dd0e1631aef6b4f9d1d280b2/jax_gpt2_sols.ipynb
# expect: shape-churn at line 93
# runtime: COMPILES 4 CALLS 7
# why: the tokenizer's encode/decode are jitted on whole character arrays, so every text of a new length (the corpus, a 20-token slice, 'hello') is a new input shape and compiles again: 4 compiles for 7 calls here, one per distinct length for every prompt the notebook later encodes.
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


# cell 1
import time
from typing import List, Dict, Tuple, Callable, NamedTuple, Any, Optional
from functools import partial
# cell 5
import jax
import jax.numpy as jnp
# cell 9
def char_to_idx(char: int) -> int:
    if 32 <= char <= 126:
        return char - 32
    else:
        return 0

def idx_to_char(index: int) -> int:
    if 0 <= index <= 94:
        return index + 32
    else:
        return ord('\n')


print(char_to_idx(ord('a')))
print(chr(idx_to_char(char_to_idx(ord('a')))))
# cell 10
class Tokenizer(NamedTuple):
    encode: Callable
    decode: Callable

def encode(text: str) -> jax.Array:
    return jnp.array([char_to_idx(ord(c)) for c in text])

def decode(ids: jax.Array) -> str:
    return ''.join([chr(idx_to_char(int(id))) for id in ids])

tokenizer = Tokenizer(encode=encode, decode=decode)
# cell 36
train_text = (  # scaffolding: a few lines instead of dataset['train']['text'][0] from tiny_shakespeare
    "First Citizen:\nBefore we proceed any further, hear me speak.\n\n"  # scaffolding
    "All:\nSpeak, speak.\n\nFirst Citizen:\nYou are all resolved rather to die than to famish?\n"  # scaffolding
)  # scaffolding
# cell 49
# with jit and vmap, we are now ready to handle the tiny shakespeare dataset efficiently
# as you saw earlier, we should avoid jit compiling functions that don't take in jax arrays
# to turn text into a jnp array that will play well with jax
# we can just define a preprocess function
# make sure to explicitly pass in dtype so that we get integer values for each index

def preprocess_text(text: str):
    return jnp.array([ord(c) for c in text], dtype=jnp.int32)
# cell 50
# now we can start by jit compiling the char_to_idx and idx_to_char functions
# this is pretty much as simple as adding the jax.jit decorator

@jax.jit
def _char_to_idx(char: jax.Array):
    return jnp.where((32 <= char) & (char <= 126), char - 32, 0)

@jax.jit
def _idx_to_char(index: jax.Array):
    return jnp.where((0 <= index) & (index <= 94), index + 32, ord(' '))

# cell 51
# now, we can use vmap to wrap those idx/char conversion functions
# we should jit compile these functions as well

@jax.jit
def _tokenizer_encode_jax(char_array: jax.Array):
    return jax.vmap(_char_to_idx)(char_array)

@jax.jit
def _tokenizer_decode_jax(ids: jax.Array):
    return jax.vmap(_idx_to_char)(ids)
# cell 52
# now, we can write our final encode/decode functions

def jit_encode(char_array):
    return _tokenizer_encode_jax(char_array)

def jit_decode(ids):
    char_array = _tokenizer_decode_jax(ids)
    return ''.join([chr(int(c)) for c in char_array])

# cell 53
jit_tokenizer = Tokenizer(encode=jit_encode, decode=jit_decode)
# cell 54
train_array = preprocess_text(train_text)
train_tokens = jit_tokenizer.encode(train_array)
train_text[:20], train_array[:20], train_tokens[:20], jit_tokenizer.decode(train_tokens[:20])
# cell 56
jit_tokenizer.decode(jit_tokenizer.encode(preprocess_text('hello')))
# cell 57
# we'll create a fake batch here to illustrate the concept

tokens_1 = jit_tokenizer.encode(preprocess_text('hello'))  # First sequence
tokens_2 = jit_tokenizer.encode(preprocess_text('world'))  # Second sequence
tokens_3 = jit_tokenizer.encode(preprocess_text('test!'))   # Third sequence

# Stack the sequences into a single batch with jnp.stack
tokens_batch = jnp.stack([tokens_1, tokens_2, tokens_3])
print(tokens_batch.shape)
_report({"jit(_tokenizer_encode_jax)", "jit(_tokenizer_decode_jax)"}, 7)  # scaffolding: 5 encode + 2 decode calls
