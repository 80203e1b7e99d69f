"""What ranks the pinyin keyboard's 汉字 for names (data only: read by :mod:`table_app.present.pinyin`).

The readings of every character come from pypinyin's dictionary; these lists only say which
characters a *name* most likely wants, kept here because no maintained package on the registry
ranks characters for names:

- :data:`COMPOUND_SURNAMES` — the two-character surnames of the 百家姓 (the classic text, public
  domain) with their surname readings, which differ from the everyday ones for some (尉迟 yùchí,
  万俟 mòqí, 单于 chányú, 长孙 zhǎngsūn): written out here, not looked up.
- :data:`SURNAMES` — single surnames, most common first, in the order of the population
  rankings the Ministry of Public Security publishes (《全国姓名报告》, as widely reprinted); the
  first thirty or so follow it closely, after that the order is approximate. Only the order
  *within one syllable* matters (王 before 汪 for "wang").
- :data:`SURNAME_READING` — the surname reading of a character whose first reading in the
  dictionary is another (曾 zēng, not céng).
- :data:`GIVEN` — characters common in given names (the same reports' most used characters and
  everyday naming), most common first; again only the order within a syllable matters.
"""

from __future__ import annotations

from typing import Final

COMPOUND_SURNAMES: Final[dict[str, str]] = {
    "欧阳": "ou yang", "诸葛": "zhu ge", "司马": "si ma", "东方": "dong fang", "上官": "shang guan",
    "皇甫": "huang fu", "令狐": "ling hu", "慕容": "mu rong", "夏侯": "xia hou", "公孙": "gong sun",
    "尉迟": "yu chi", "长孙": "zhang sun", "宇文": "yu wen", "司徒": "si tu", "轩辕": "xuan yuan",
    "端木": "duan mu", "独孤": "du gu", "南宫": "nan gong", "西门": "xi men", "百里": "bai li",
    "呼延": "hu yan", "闻人": "wen ren", "东郭": "dong guo", "澹台": "tan tai", "太史": "tai shi",
    "申屠": "shen tu", "钟离": "zhong li", "赫连": "he lian", "万俟": "mo qi", "第五": "di wu",
    "濮阳": "pu yang", "淳于": "chun yu", "单于": "chan yu", "宗政": "zong zheng", "公冶": "gong ye",
    "司空": "si kong", "拓跋": "tuo ba", "鲜于": "xian yu", "闾丘": "lv qiu", "公羊": "gong yang",
    "左丘": "zuo qiu", "梁丘": "liang qiu", "东门": "dong men", "司寇": "si kou", "仲孙": "zhong sun",
    "太叔": "tai shu", "漆雕": "qi diao", "乐正": "yue zheng", "公良": "gong liang", "谷梁": "gu liang",
    "段干": "duan gan", "巫马": "wu ma", "公西": "gong xi", "颛孙": "zhuan sun", "亓官": "qi guan",
}

SURNAMES: Final = (
    "王李张刘陈杨黄赵吴周徐孙马胡朱郭何罗高林郑梁谢唐许冯宋韩邓彭曹曾田于肖潘袁董叶杜丁蒋程余吕魏蔡苏任卢"
    "沈姜姚钟崔陆谭汪石付贾范金方韦夏廖侯白孟邹秦尹江熊薛邱闫段雷季史陶毛贺龙万顾关郝孔向龚邵钱武戴黎严"
    "欧莫汤常覃康易乔赖文施洪辛柯庄樊左牛温葛齐岳申殷聂包祝甘邢褚安连章童倪舒鲁颜耿祁伍翟华纪宁詹梅柳"
    "焦解单车艾霍阮凌房蒲游苗尚卓巩查姬鲍滕古符谷付桂裴屈鞠丛刁时盛骆路虞柏蓝卜宫项仇区朴盖缪"
)

SURNAME_READING: Final[dict[str, str]] = {
    "曾": "zeng", "单": "shan", "解": "xie", "区": "ou", "仇": "qiu", "查": "zha", "朴": "piao",
    "盖": "ge", "缪": "miao", "覃": "qin", "长": "zhang", "乐": "yue", "万": "wan", "尉": "yu",
    "翟": "zhai", "任": "ren", "华": "hua", "燕": "yan", "纪": "ji", "员": "yun", "种": "chong",
    "宁": "ning", "召": "shao", "秘": "bi", "折": "she", "繁": "po", "柏": "bai", "车": "che",
}

GIVEN: Final = (
    "阿小伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚英华玉兰红梅建国文志海云春金珍凤林辉鹏斌宇浩凯俊峰龙"
    "飞波鑫晨欣怡婷雪琳颖倩丹萍燕玲慧佳嘉子梓轩涵雨萱晗睿博宁安瑞泽晓阳东亮成德荣福生清永庆胜光天新立振"
    "宏家晶蕾莉琴悦璐思诗彤妍婧冰月薇蓉菲露媛洁莹瑶可馨一铭宸诺逸然皓昊航煜奕辰钰琪琦璇晴昕妮娇娅青利忠"
    "民秋桂淑素香芬翠欢晖彬剑亚楠锋坤毅森淼达旭晟骏鸿哲翔恒瀚铮卓婉君蕊倩颖茜钧乐航豪翰霖泓琛瑾瑜璟珊"
    "琼瑛岚蓓丝影娴雯霏雅美惠淑贞宝荷叶珠翠仁义礼智信和祥瑞福禄寿喜康健宁静远航波涛江河山川松柏竹桐"
    "兵武斌彪虎豹雄威猛亮辉煌耀灿烁光明朗星辰宇宙乾坤元亨利贞伦理德才学思言行知守诚心正直中华卫国"
    "老大二三四五六七八九十"
)
