#!/bin/bash
# Pre-training a 70B decoder with Megatron-LM on 64 nodes.
GPUS_PER_NODE=8

torchrun --nproc_per_node $GPUS_PER_NODE --nnodes 64 pretrain_gpt.py \
    --tensor-model-parallel-size 8 \
    --pipeline-model-parallel-size 4 \
    --sequence-parallel \
    --use-distributed-optimizer \
    --num-layers 80 \
    --hidden-size 8192 \
    --ffn-hidden-size 28672 \
    --num-attention-heads 64 \
    --group-query-attention \
    --num-query-groups 8 \
    --swiglu \
    --untie-embeddings-and-output-weights \
    --normalization RMSNorm \
    --position-embedding-type rope \
    --vocab-size 128256 \
    --seq-length 8192 \
    --max-position-embeddings 8192 \
    --micro-batch-size 1 \
    --global-batch-size 1024 \
    --train-iters 500000 \
    --lr 1.5e-4 \
    --optimizer adam \
    --bf16 \
    --fp8-format hybrid \
    --recompute-granularity selective \
    --data-path $DATA_PATH \
    --save $CHECKPOINT_PATH
