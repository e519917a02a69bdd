package child

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// KillGroupOnCancel makes cmd, an exec.CommandContext, start in a
// process group of its own and, when its context is done, kill the whole
// group and wait until none of it is left (at most groupGrace): a kill of
// the go command alone leaves the compiler and linker it runs going.
// Wait returns only after that.
func KillGroupOnCancel(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error {
		pgid := cmd.Process.Pid
		err := syscall.Kill(-pgid, syscall.SIGKILL)
		for deadline := time.Now().Add(groupGrace); len(GroupMembers(pgid)) > 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		return err
	}
}

// groupGrace bounds the wait for a killed group's members to die.
const groupGrace = 10 * time.Second

// GroupMembers lists the live processes of process group pgid, from
// /proc. Zombies are not counted: they are dead, waiting for their
// parent to reap them.
func GroupMembers(pgid int) []int {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		state, group, ok := procStat(pid)
		if ok && group == pgid && state != 'Z' && state != 'X' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procStat reads a process's state and process group from
// /proc/PID/stat.
func procStat(pid int) (state byte, pgid int, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	// pid (comm) state ppid pgrp ...; comm may contain spaces and parens.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pgid, err = strconv.Atoi(f[2])
	return f[0][0], pgid, err == nil
}
