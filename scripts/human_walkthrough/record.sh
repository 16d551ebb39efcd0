#!/bin/bash
# Plays the walk-through of docs/human.md with the real `tau-sim human` in tmux (120x40) and
# saves each screen as text under OUT (default ./walkthrough); render.py then writes the page:
#   scripts/human_walkthrough/record.sh OUT && python scripts/human_walkthrough/render.py OUT > docs/human.md
# `tau-sim` must be on PATH (the project's virtual environment). Waits for what each step shows,
# never for a time alone (the sleeps only let a key's redraw land before the next key).
set -euo pipefail
OUT=$(mkdir -p "${1:-walkthrough}" && cd "${1:-walkthrough}" && pwd)
S=tau-sim-walkthrough
cap() { tmux capture-pane -p -t $S; }
waitfor() {
    for _ in $(seq 1 240); do cap | grep -q -- "$1" && return 0; sleep 0.5; done
    echo "record.sh: the screen never showed: $1" >&2; return 1
}
keys() { for k in "$@"; do tmux send-keys -t $S "$k"; sleep 0.4; done; }
typeline() { tmux send-keys -t $S -l "$1"; sleep 0.3; }
save() { sleep "${2:-1}"; cap > "$OUT/$1.txt"; }
joined() { sleep 1; tmux capture-pane -p -J -t $S > "$OUT/$1.txt"; }
start_screen() { tmux send-keys -t $S "clear; tau-sim human --db walk.db" Enter; waitfor "tau-sim human  Retail"; }
agent_hard() { keys Tab Tab Enter; sleep 0.5; keys Down Enter; sleep 0.6; keys Tab Enter; sleep 0.5; keys Down Down Enter; sleep 0.6; keys Tab; }

rm -f "$OUT/walk.db"
tmux kill-session -t $S 2>/dev/null || true
tmux new-session -d -s $S -x 120 -y 40 -c "$OUT"
trap 'tmux kill-session -t $S 2>/dev/null || true' EXIT
tmux send-keys -t $S "export PATH='$PATH' PS1='$ '; clear" Enter; sleep 1  # a login shell resets PATH

# 1. the user role
start_screen; save u01
keys Tab Tab Tab Enter; sleep 0.5; keys Down Down; save u02 0.5
keys Enter; sleep 0.5; keys Tab Tab Tab; save u03
keys Enter; waitfor "You are the customer"; save u04 2
typeline "I want to return the wooden Bookshelf, 4ft. No idea which order it was in. Sort it out."
keys Enter; waitfor "zip code?"; save u06
typeline "Lena Taylor, 80237. Hurry up."; keys Enter; waitfor "which order"; sleep 1
typeline "The order with the Bookshelf (material: wood, height: 4ft). I told you already."
keys Enter; waitfor "payment method, so"; sleep 1
typeline "My Mastercard credit card ending in 8380."; keys Enter; waitfor "yes or no"; sleep 1
typeline "Yes. Go ahead."; keys Enter; waitfor "anything else I can"; save u10
typeline "No, that's all. Took long enough."; keys C-s; waitfor "reward 1.00"; save u11 9
keys C-q; waitfor "user tags"; save u12

# 2. the agent role
start_screen; agent_hard; save a01
keys Enter; waitfor "You are the agent"; waitfor "right now"; save a02
typeline "I'm sorry the Bookshelf disappointed you; I'll sort it out. To find your account, what are your first name, last name and zip code?"
keys Enter; waitfor "80237\."; save a03
typeline "/find_user_id_by_name_zip first_name=Lena last_name=Taylor zip=80237"
keys Enter; waitfor "lena_taylor_7769 "; sleep 1
typeline "/get_user_details user_id=lena_taylor_7769"; save a04 0.3
keys Enter; waitfor "#W2738562"; save a05
typeline "/get_order_details order_id=#W6776977"; keys Enter; waitfor '"delivered_on": "2025-06-01"'; save a06
typeline "/days_between start_date=2025-06-01 end_date=2025-06-16"; keys Enter; waitfor "│     █ 15 "; sleep 1
typeline "Found it: order #W6776977, delivered 2025-06-01, 15 days ago, so it can be returned. I'll return the Bookshelf (item 3708053459) and refund \$161.13 to your Mastercard ending in 8380, which paid for it. Shall I go ahead?"
keys Enter; waitfor "user  Yes"; save a07
typeline '/return_delivered_order_items order_id=#W6776977 item_ids=["3708053459"] payment_method_id=credit_card_9885332'
keys Enter; waitfor "return_payment_method_id"; save a09
typeline 'Done: the return of the Bookshelf is requested and $161.13 will go back to your Mastercard ending in 8380 within 5 to 7 business days. Anything else?'
keys Enter; waitfor "reward 1.00"; save a10 9
keys C-q; waitfor "user tags"; save a11

# 3. stopped at once: from the start screen, then from flags
start_screen; agent_hard; keys Enter; waitfor "right now"; keys C-q; waitfor "resume with"; joined s01
tmux send-keys -t $S "clear; tau-sim human --role agent --domain retail --task retail-014 --db walk.db" Enter
waitfor "right now"; keys C-q; waitfor "resume with"; joined s02
echo "record.sh: the captures are in $OUT"
