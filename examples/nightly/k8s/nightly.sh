#!/bin/sh
# Runs the nightly batch on the cluster kubectl points at: the shards as
# an Indexed Job, then, once every shard succeeded, the merge. Schedule it
# with cron, a CI job or anything else that can run kubectl.
set -eu
cd "$(dirname "$0")"
kubectl apply -f results-pvc.yaml
kubectl delete -f shards-job.yaml -f merge-job.yaml --ignore-not-found --wait
kubectl apply -f shards-job.yaml
kubectl wait --for=condition=complete --timeout=12h job/benchspec-nightly
kubectl apply -f merge-job.yaml
kubectl wait --for=condition=complete --timeout=30m job/benchspec-nightly-merge
kubectl logs job/benchspec-nightly-merge
