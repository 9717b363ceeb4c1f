# bash's own constructs on top of the shell basics (busybox-shell.sh).
# tests/kvm/test_real_programs.c runs it with bash-static natively and in the
# guest and compares the outputs line by line, digits masked.
set -o pipefail
echo "pipeline: $(printf '3\n1\n2\n' | sort -n | paste -sd, -)"
echo "pipefail: $(false | true; echo $?)"
echo "PIPESTATUS: $(true | false | true; echo "${PIPESTATUS[@]}")"
while read -r line; do echo "process substitution: $line"; done < <(printf 'alpha\nbeta\n')
diff <(printf 'a\nb\n') <(printf 'a\nc\n') > /dev/null; echo "diff of two substitutions: $?"
echo "here-string: $(tr a-z A-Z <<< "upper")"
declare -A colours=([sky]=blue [grass]=green)
echo "associative array: ${colours[grass]} ${#colours[@]}"
arr=(one two three); echo "array slice: ${arr[*]:1}"
echo "brace expansion: $(echo {a..c}{1,2})"
coproc upper { tr a-z A-Z; }
echo "coproc in" >&"${upper[1]}"; exec {upper[1]}>&-
read -r reply <&"${upper[0]}"; echo "coproc: $reply"
wait "$upper_PID"; echo "coproc exit: $?"
TIMEFORMAT='time: real %R user %U sys %S'
{ time sleep 0.1; } 2>&1
{ time { for i in 1 2 3; do :; done; }; } 2>&1
sleep 1 & job=$!
kill -STOP "$job"; sleep 0.1
echo "stopped job state: $(cut -d' ' -f3 /proc/$job/stat)"
kill -CONT "$job"; kill "$job"; wait "$job"; echo "killed job: $?"
trap 'echo "trap ERR at line $LINENO"' ERR
false
trap - ERR
echo "subshell pid differs: $([ "$BASHPID" != "$(bash -c 'echo $PPID' 2>/dev/null || echo x)" ] && echo yes)"
printf 'printf -v: '; printf -v formatted '%05.1f' 3.14159; echo "$formatted"
echo "done"
