# toy.mk: the toy experiment's make target.
.PHONY: toy
toy:
	analysis/toy/run
