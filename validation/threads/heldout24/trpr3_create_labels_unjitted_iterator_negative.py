# source: https://github.com/EleutherAI/transformer-reasoning/pull/3
# expect: none
# runtime: COMPILES 0 CALLS 3
# why: As merged, the jit decorator on _create_labels_and_positions_jax is commented out, so the '_jit' helper runs eagerly (its Python loops and jnp.where need concrete values) and nothing is compiled for it over 3 batches.

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


# ---- src/transformer_reasoning/train/dataset.py (JAX part; torch/datasets imports and the torch dataset left out) ----
import random
import re  # scaffolding: for the stand-in tokenizer
from typing import Iterator, Dict
from functools import partial

import numpy as np  # scaffolding: stand-in tokenizer returns numpy instead of torch tensors
import jax.numpy as jnp
import jax

# from transformer_reasoning.generate_dataset.generate_qa_dataset import maybe_generate_question  # scaffolding: stand-in below


def maybe_generate_question(profile, profiles, order, a, b, subject):  # scaffolding: stand-in for the repo's QA generator
    other = profiles[(profile["id"] + order) % len(profiles)]  # scaffolding
    return {"question": f"What is the birth city of {profile['name']} 's friend ?", "answer": other["city"]}, None  # scaffolding


class _WordTokenizer:  # scaffolding: stand-in for the HF tokenizer (transformers not installed)
    eos_token = "<|endoftext|>"  # scaffolding
    def __init__(self):  # scaffolding
        self.vocab = {self.eos_token: 0}  # scaffolding
    def _ids(self, text):  # scaffolding
        toks = re.findall(r"<\|endoftext\|>|\w+|[^\w\s]", text)  # scaffolding
        return [self.vocab.setdefault(t, len(self.vocab)) for t in toks]  # scaffolding
    def __call__(self, text, add_special_tokens=True, max_length=None, return_attention_mask=True, truncation=False, return_tensors=None):  # scaffolding
        ids = self._ids(text)  # scaffolding
        if truncation and max_length is not None:  # scaffolding
            ids = ids[:max_length]  # scaffolding
        return {"input_ids": np.array([ids]) if return_tensors else ids}  # scaffolding


# @partial(jax.jit, static_argnums=(1, 2))
def _create_labels_and_positions_jax(input_ids, answer_sep_tokens, question_sep_tokens):
    """JIT-compiled version of label creation and position ID generation"""
    batch_size, seq_len = input_ids.shape
    mask = jnp.zeros_like(input_ids, dtype=bool)
    position_ids = jnp.zeros_like(input_ids)
    
    # Find sequence boundaries and answer starts
    ends = input_ids == question_sep_tokens[0]
    # Shape: (batch_size, num_ends)
    end_indices = jnp.array([jnp.where(ends[b])[0] for b in range(batch_size)])
    
    # Find answer starts
    starts = jnp.all(jnp.stack([
        jnp.roll(input_ids, -i, axis=1) == token
        for i, token in enumerate(answer_sep_tokens)
    ]), axis=0)
    # Shape: (batch_size, num_starts)
    start_indices = jnp.array([jnp.where(starts[b])[0] for b in range(batch_size)])
    
    # Process each batch item separately
    for b in range(batch_size):
        last_end = 0
        batch_ends = end_indices[b]
        batch_starts = start_indices[b]
        
        # Create position IDs and labels for this batch item
        for i in range(len(batch_ends)):
            end = batch_ends[i]
            # Set position IDs for this sequence
            seq_length = end - last_end + 1
            position_ids = position_ids.at[b, last_end:end+1].set(jnp.arange(seq_length))
            
            # Find corresponding answer start for this sequence
            if i < len(batch_starts):
                ans_start = batch_starts[i] + len(answer_sep_tokens)
                if ans_start < end:
                    mask = mask.at[b, ans_start:end].set(True)
            
            last_end = end + 1
    
    # Create labels using the mask
    labels = jnp.where(mask, input_ids, -100)
    
    return labels, position_ids



class JAXQADataset:
    def __init__(self, profiles_dataset, tokenizer, max_seq_len=512, orders=[1,2], qa_indices=[], subjects=None, hop_ratio=0.1):
        self.profiles = profiles_dataset
        self.tokenizer = tokenizer
        self.max_seq_len = max_seq_len
        self.samples_per_yield = (max_seq_len//15)
        self.orders = orders
        self.qa_indices = qa_indices
        self.order_weights = [1/hop_ratio**i for i in range(len(orders))]
        self.subjects = subjects
        self.answer_sep_tokens = tokenizer('Answer:', add_special_tokens=False)['input_ids']
        self.eos_token = tokenizer.eos_token or "<|endoftext|>"
        self.question_sep_tokens = tokenizer(self.eos_token, add_special_tokens=False)['input_ids']


        self._create_labels_and_positions_jit = partial(
            _create_labels_and_positions_jax,
            answer_sep_tokens=self.answer_sep_tokens,
            question_sep_tokens=self.question_sep_tokens,
        )

    def __iter__(self) -> Iterator[Dict[str, jnp.ndarray]]:
        while True:
            texts = []
            for _ in range(self.samples_per_yield):
                question = self.generate_qa()
                texts.append(question)
            
            sep = self.tokenizer.eos_token or "<|endoftext|>"
            joined_text = sep.join(texts)
            output = self.tokenizer(
                joined_text,
                max_length=self.max_seq_len,
                return_attention_mask=False,
                truncation=True,
                return_tensors="pt"
            )
            
            input_ids = jnp.array(output["input_ids"])
            
            labels, position_ids = self._create_labels_and_positions_jit(input_ids)
            
            yield {
                "input_ids": input_ids.squeeze(0),
                "labels": labels.squeeze(0),
                "position_ids": position_ids.squeeze(0)
            }

    def generate_qa(self):
        profile_idx = random.choice(self.qa_indices)
        profile = self.profiles[profile_idx]
        order = random.choices(self.orders, weights=self.order_weights, k=1)[0]
        subject = random.choice(self.subjects) if self.subjects else None
        question, _ = maybe_generate_question(profile, self.profiles, order, {}, {}, subject)
        if question:
            return f"Question: {question['question']} Answer: {question['answer']}"
        return None



profiles = [{"id": i, "name": f"Person{i}", "city": f"City{i % 7}"} for i in range(20)]  # scaffolding: stand-in for the HF profiles dataset
tokenizer = _WordTokenizer()  # scaffolding
random.seed(0)  # scaffolding
dataset = JAXQADataset(profiles, tokenizer, max_seq_len=512, orders=[1, 2], qa_indices=list(range(20)))  # scaffolding: load_and_prepare_datasets(..., jax=True)
calls = 0  # scaffolding
for batch, _ in zip(dataset, range(3)):  # scaffolding: the training loop draws batches from the iterator
    calls += 1  # scaffolding
_report({"jit(_create_labels_and_positions_jax)"}, calls)  # scaffolding
