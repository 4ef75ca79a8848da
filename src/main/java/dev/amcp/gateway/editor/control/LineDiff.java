package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.editor.entity.DiffLine;
import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of two texts by their longest common subsequence of lines: enough for reviewing a proposed program
 * against the tool it would replace. Texts are capped by the code tool size limit, so the quadratic table is small.
 */
public final class LineDiff {

    /** Beyond this many lines on either side the texts are shown as removed then added, without a table. */
    static final int MAX_LINES = 2_000;

    private LineDiff() {}

    public static List<DiffLine> of(String oldText, String newText) {
        List<String> a = lines(oldText);
        List<String> b = lines(newText);
        List<DiffLine> out = new ArrayList<>();
        if (a.size() > MAX_LINES || b.size() > MAX_LINES) {
            a.forEach(l -> out.add(new DiffLine(DiffLine.REMOVED, l)));
            b.forEach(l -> out.add(new DiffLine(DiffLine.ADDED, l)));
            return out;
        }
        // common[i][j]: length of the longest common subsequence of a[i..] and b[j..]
        int[][] common = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                common[i][j] = a.get(i).equals(b.get(j)) ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            if (a.get(i).equals(b.get(j))) {
                out.add(new DiffLine(DiffLine.SAME, a.get(i++)));
                j++;
            } else if (common[i + 1][j] >= common[i][j + 1]) {
                out.add(new DiffLine(DiffLine.REMOVED, a.get(i++)));
            } else {
                out.add(new DiffLine(DiffLine.ADDED, b.get(j++)));
            }
        }
        while (i < a.size()) {
            out.add(new DiffLine(DiffLine.REMOVED, a.get(i++)));
        }
        while (j < b.size()) {
            out.add(new DiffLine(DiffLine.ADDED, b.get(j++)));
        }
        return out;
    }

    private static List<String> lines(String text) {
        return text == null || text.isEmpty() ? List.of() : List.of(text.replace("\r\n", "\n").split("\n", -1));
    }
}
