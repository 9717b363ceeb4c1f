# A shell script of the constructs a real program's scripts use.
# tests/kvm/test_real_programs.c runs it with busybox-static's
# ash natively and in the guest and compares the two outputs line by line,
# digits masked (pids, times and sizes differ between the two machines).
echo "pipeline: $(printf 'b\na\nc\n' | sort | tr '\n' ' ')"
n=$(printf 'hello\n' | wc -c)
echo "command substitution: $n bytes"
echo "nested: $(echo "$(echo inner | tr a-z A-Z)")"
cat <<EOT
here-document: $((6 * 7))
EOT
while read -r word; do echo "read: $word"; done <<EOT
one
two
EOT
printf 'x y z\n' | { read -r a b c; echo "read in a pipe: $c $b $a"; }
echo "exit status of a pipeline: $(false | true; echo $?)"

sleep 0.2 & first=$!
(exit 3) & second=$!
wait "$first"; echo "wait for sleep: $?"
wait "$second"; echo "wait for (exit 3): $?"

trap 'echo "trap: USR1 caught"' USR1
kill -USR1 $$
trap - USR1
trap 'echo "trap: EXIT runs last"' EXIT

sleep 2 & job=$!
kill -STOP "$job"
sleep 0.2
echo "stopped job: $(ps -o pid,stat | awk -v j="$job" '$1 == j { print substr($2, 1, 1) }')"
kill -CONT "$job"
sleep 0.2
echo "continued job: $(ps -o pid,stat | awk -v j="$job" '$1 == j { print substr($2, 1, 1) }')"
kill "$job"
wait "$job"; echo "killed job: $?"

echo "ps sees this shell: $(ps -o pid | grep -c "^ *$$\$")"
cat /proc/$$/status | grep -E '^(Umask|Pid|PPid|Threads|Uid|Gid):'
echo "/proc/self is the reader: $(cat /proc/self/stat | cut -d' ' -f2)"
echo "done"
